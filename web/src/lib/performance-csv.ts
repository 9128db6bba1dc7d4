// A CSV of daily ad figures as ad platforms export it (Meta's "Day, Ad name, Impressions, Clicks (all),
// Results, Amount spent (USD), Purchases conversion value", Google's "Day, Ad ID, Impr., Clicks,
// Conversions, Cost, Conv. value", or our own field names) read into ingest requests, one per row, each
// with the row's number so a refusal can be shown beside it.
import type { PerformanceIngestInput } from "@adgen/schema";

/** RFC 4180 fields: commas, quotes doubled inside quoted fields, CRLF or LF line ends. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  const source = text.replace(/^\uFEFF/, "");
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (quoted) {
      if (c === '"' && source[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && source[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((cell) => cell.trim() !== ""));
}

type Column = "date" | "creativeId" | "impressions" | "clicks" | "conversions" | "spend" | "revenue";

/** The header names each column goes by, lower-cased, without a currency in brackets. */
const HEADERS: Record<Column, string[]> = {
  date: ["day", "date", "reporting starts", "reporting date"],
  creativeId: ["creativeid", "creative", "creative id", "ad id", "ad name", "ad"],
  impressions: ["impressions", "impr."],
  clicks: ["clicks", "clicks (all)", "link clicks"],
  conversions: ["conversions", "results", "purchases", "conv."],
  spend: ["spend", "amount spent", "cost"],
  revenue: ["revenue", "conversion value", "purchases conversion value", "purchase conversion value", "conv. value"],
};

const normal = (header: string) =>
  header
    .toLowerCase()
    .replace(/\(([a-z]{3})\)\s*$/, "")
    .trim();

export interface CsvRow {
  /** The row's line in the file (the header is line 1). */
  line: number;
  request: PerformanceIngestInput;
}

export type CsvReading = { rows: CsvRow[]; missing: null } | { rows: []; missing: string };

/** Numbers as exported: "1,234" and "$12.50" read as 1234 and 12.5; an empty cell as 0. */
const numberOf = (cell: string | undefined) => {
  const text = (cell ?? "").replace(/[\s$€£,]/g, "");
  return text === "" ? 0 : Number(text);
};

export function readPerformanceCsv(text: string, brandId: string): CsvReading {
  const [header, ...body] = parseCsv(text);
  if (!header) return { rows: [], missing: "The file is empty: export the report with a header row." };
  const names = header.map(normal);
  const index = Object.fromEntries(
    (Object.keys(HEADERS) as Column[]).map((column) => [column, names.findIndex((name) => HEADERS[column].includes(name))]),
  ) as Record<Column, number>;
  const absent = (["date", "creativeId", "impressions", "clicks"] as Column[]).filter((c) => index[c] < 0);
  if (absent.length) {
    const wanted = absent.map((c) => `${c} (e.g. "${HEADERS[c][0]}")`).join(", ");
    return { rows: [], missing: `The header row has no column for ${wanted}. Found: ${header.join(", ")}.` };
  }
  const cell = (row: string[], column: Column) => (index[column] >= 0 ? row[index[column]] : undefined);
  return {
    missing: null,
    rows: body.map((row, i) => ({
      line: i + 2,
      request: {
        creativeId: (cell(row, "creativeId") ?? "").trim(),
        date: (cell(row, "date") ?? "").trim(),
        impressions: numberOf(cell(row, "impressions")),
        clicks: numberOf(cell(row, "clicks")),
        conversions: numberOf(cell(row, "conversions")),
        spend: numberOf(cell(row, "spend")),
        revenue: numberOf(cell(row, "revenue")),
        brandId,
      },
    })),
  };
}

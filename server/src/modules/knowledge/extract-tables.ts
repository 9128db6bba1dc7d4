// Workbooks (exceljs's streaming reader, every sheet) and CSV files (papaparse on the file's first bytes),
// each row as "header: value; header: value" so a passage keeps what a number means. Both stop at the caps
// on rows, cells and text, and say so in a warning; a CSV line past its cap is refused.
import type ExcelJS from "exceljs";
import { count, EXTRACTION_CAPS, TextBudget } from "./extraction-caps.ts";
import { type Extracted, ExtractionError } from "./extraction-error.ts";
import { decodeText, readHead, tidy } from "./plain-text.ts";
import { checkZipSizes } from "./zip-inspect.ts";

/** Rows into labelled lines (the first row of each table names the columns), within the caps. */
class Tables {
  private readonly budget = new TextBudget();
  private rows = 0;
  private cells = 0;
  private capped: string | null = null;
  private tables = 0;
  private header: string[] | null = null;
  private bodyRows = 0;

  constructor(private readonly what: string) {}

  /** Starts a table (a sheet, under its name). */
  begin(title?: string): boolean {
    this.header = null;
    this.bodyRows = 0;
    const separator = this.tables++ > 0 ? "\n\n" : "";
    return this.budget.add(title === undefined ? separator : `${separator}${title}\n`);
  }

  /** Adds a row; false once a cap is reached (the rest is not read). */
  row(values: string[]): boolean {
    const { maxRows, maxCells } = EXTRACTION_CAPS;
    if (this.rows >= maxRows || this.cells + values.length > maxCells) {
      const what = this.rows >= maxRows ? `${count(maxRows)} rows` : `${count(maxCells)} cells`;
      this.capped = `Only the first ${what} are read; split the ${this.what} to use the rest`;
      return false;
    }
    this.rows++;
    this.cells += values.length;
    const header = this.header;
    if (!header) {
      this.header = values;
      return true;
    }
    this.bodyRows++;
    const line = values
      .map((value, i) => (value.trim() ? (header[i]?.trim() ? `${header[i]!.trim()}: ${value.trim()}` : value.trim()) : ""))
      .filter(Boolean)
      .join("; ");
    return this.budget.add(`${line}\n`);
  }

  /** Ends a table: a table of one row is that row. */
  end(): boolean {
    return this.header && this.bodyRows === 0 ? this.budget.add(this.header.join(", ")) : true;
  }

  result(extraWarning: string | null = null): Extracted {
    const warning = this.capped ?? this.budget.warning() ?? extraWarning;
    return { text: tidy(this.budget.text()), ...(warning ? { warning } : {}) };
  }
}

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === "object") {
    if ("richText" in value) return value.richText.map((r) => r.text).join("");
    if ("result" in value) return cellText(value.result as ExcelJS.CellValue);
    if ("text" in value) return String(value.text);
    if ("error" in value) return "";
  }
  return String(value);
}

const DAMAGED_XLSX = "The workbook could not be read (it is damaged or not a real XLSX); save it again as .xlsx and upload that";

export async function xlsxText(path: string): Promise<Extracted> {
  await checkZipSizes(path, "workbook", DAMAGED_XLSX);
  const { default: Excel } = await import("exceljs");
  const tables = new Tables("workbook");
  try {
    const reader = new Excel.stream.xlsx.WorkbookReader(path, {
      worksheets: "emit",
      sharedStrings: "cache",
      styles: "cache",
      hyperlinks: "ignore",
    });
    let sheetNumber = 0;
    sheets: for await (const sheet of reader) {
      sheetNumber++;
      if (!tables.begin((sheet as { name?: string }).name ?? `Sheet${sheetNumber}`)) break;
      for await (const row of sheet) {
        const values = Array.from((row.values as ExcelJS.CellValue[]).slice(1), cellText);
        if (values.some((v) => v.trim()) && !tables.row(values)) break sheets;
      }
      if (!tables.end()) break;
    }
  } catch {
    throw new ExtractionError(DAMAGED_XLSX);
  }
  return tables.result();
}

/** The length of the longest line (bytes up to a line feed). */
function longestLine(bytes: Buffer): number {
  let longest = 0;
  for (let start = 0; start < bytes.length; ) {
    const end = bytes.indexOf(0x0a, start);
    const stop = end < 0 ? bytes.length : end;
    longest = Math.max(longest, stop - start);
    start = stop + 1;
  }
  return longest;
}

export async function csvText(path: string): Promise<Extracted> {
  const { maxPlainBytes, maxLineBytes, maxRows } = EXTRACTION_CAPS;
  const head = await readHead(path, maxPlainBytes);
  // A file past the cap is read up to its last whole line.
  const bytes = head.cut ? head.bytes.subarray(0, head.bytes.lastIndexOf(0x0a) + 1) : head.bytes;
  if ((head.cut && bytes.length === 0) || longestLine(bytes) > maxLineBytes) {
    throw new ExtractionError(
      `A line of this CSV file is longer than ${count(maxLineBytes / 1024 / 1024)} MB (a CSV holds one row per line); check the file, or upload the text as a TXT file`,
    );
  }
  const { default: Papa } = await import("papaparse");
  const parsed = Papa.parse<string[]>(decodeText(bytes, head.cut), { skipEmptyLines: true, preview: maxRows + 1 });
  if (parsed.data.length === 0) throw new ExtractionError("The CSV file holds no rows");
  const tables = new Tables("CSV file");
  tables.begin();
  for (const row of parsed.data) if (!tables.row(row.map(String))) break;
  tables.end();
  const cutWarning = head.cut
    ? `Only the first ${count(maxPlainBytes / 1024 / 1024)} MB are read; split the CSV file to use the rest`
    : null;
  return tables.result(cutWarning);
}

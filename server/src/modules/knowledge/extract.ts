// Text out of a stored document, by kind: unpdf (PDF), mammoth (DOCX), exceljs (XLSX, every sheet),
// papaparse (CSV, each row as "header: value" so a passage keeps what a number means), TXT decoded by its
// BOM, as UTF-8 when it is valid, else as Windows-1252. A web page keeps its readable text (cheerio).
import { readFile } from "node:fs/promises";
import type { KnowledgeFileKind } from "@adgen/schema";
import type ExcelJS from "exceljs";

export interface Extracted {
  text: string;
  /** A note for the user on a usable result (a scanned PDF with no text layer). */
  warning?: string;
}

/** A failure the user can act on; its message is shown as the item's `error`. */
export class ExtractionError extends Error {}

const tidy = (text: string) =>
  text
    .replace(/\r\n?/g, "\n")
    .replace(/[ \t\f\v\u00a0]+/g, " ")
    .replace(/ *\n */g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();

// Windows-1252's 0x80–0x9F (ISO-8859-1 has control characters there). Node's TextDecoder decodes
// "windows-1252" as ISO-8859-1, so these are mapped here; 0 marks the five unassigned bytes.
const CP1252_HIGH = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0, 0, 0x2018, 0x2019,
  0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
];

function decodeWindows1252(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) {
    const mapped = byte >= 0x80 && byte <= 0x9f ? CP1252_HIGH[byte - 0x80] || byte : byte;
    out += String.fromCharCode(mapped);
  }
  return out;
}

/** Bytes as text: a BOM decides, else UTF-8 when the bytes are valid UTF-8, else Windows-1252 (Latin-1's superset). */
export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder("utf-8").decode(bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes.subarray(2));
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return decodeWindows1252(bytes);
  }
}

async function pdfText(path: string): Promise<Extracted> {
  let pages: string[];
  try {
    // Each reader is loaded when a file of its kind first arrives: an idle service holds none of them.
    const { extractText, getDocumentProxy } = await import("unpdf");
    const pdf = await getDocumentProxy(new Uint8Array(await readFile(path)));
    pages = (await extractText(pdf, { mergePages: false })).text;
  } catch (error) {
    const why = (error as Error).message ?? "";
    if (/password/i.test(why)) throw new ExtractionError("The PDF is password-protected; save a copy without a password and upload that");
    throw new ExtractionError("The PDF could not be read (it is damaged or not a real PDF); export it again and upload the new file");
  }
  const text = tidy(pages.join("\n\n"));
  if (!text) {
    return {
      text: "",
      warning: "This PDF holds no text (it looks scanned: pages are pictures); upload a PDF with a text layer, or the text as a TXT file",
    };
  }
  return { text };
}

async function docxText(path: string): Promise<Extracted> {
  try {
    const { default: mammoth } = await import("mammoth");
    const { value } = await mammoth.extractRawText({ path });
    return { text: tidy(value) };
  } catch {
    throw new ExtractionError(
      "The Word document could not be read (it is damaged or not a real DOCX); save it again as .docx and upload that",
    );
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

async function xlsxText(path: string): Promise<Extracted> {
  const { default: Excel } = await import("exceljs");
  const workbook = new Excel.Workbook();
  try {
    await workbook.xlsx.readFile(path);
  } catch {
    throw new ExtractionError("The workbook could not be read (it is damaged or not a real XLSX); save it again as .xlsx and upload that");
  }
  const sheets: string[] = [];
  workbook.eachSheet((sheet) => {
    const rows: string[][] = [];
    sheet.eachRow((row) => {
      const values = (row.values as ExcelJS.CellValue[]).slice(1).map(cellText);
      if (values.some((v) => v.trim())) rows.push(values);
    });
    sheets.push(`${sheet.name}\n${labelledRows(rows)}`);
  });
  return { text: tidy(sheets.join("\n\n")) };
}

/** Rows as "header: value; header: value" (the first row names the columns), so each line stands on its own. */
function labelledRows(rows: string[][]): string {
  const [header, ...body] = rows;
  if (!header) return "";
  if (body.length === 0) return header.join(", ");
  return body
    .map((row) =>
      row
        .map((value, i) => (value.trim() ? (header[i]?.trim() ? `${header[i]!.trim()}: ${value.trim()}` : value.trim()) : ""))
        .filter(Boolean)
        .join("; "),
    )
    .join("\n");
}

async function csvText(bytes: Uint8Array): Promise<Extracted> {
  const { default: Papa } = await import("papaparse");
  const parsed = Papa.parse<string[]>(decodeText(bytes), { skipEmptyLines: true });
  if (parsed.data.length === 0) throw new ExtractionError("The CSV file holds no rows");
  return { text: tidy(labelledRows(parsed.data.map((row) => row.map(String)))) };
}

/** The text of the stored file at `path`, by its (sniffed) kind. */
export async function extractFileText(path: string, kind: KnowledgeFileKind): Promise<Extracted> {
  switch (kind) {
    case "pdf":
      return pdfText(path);
    case "docx":
      return docxText(path);
    case "xlsx":
      return xlsxText(path);
    case "csv":
      return csvText(await readFile(path));
    case "txt":
      return { text: tidy(decodeText(await readFile(path))) };
  }
}

const BLOCKS = "p, h1, h2, h3, h4, h5, h6, li, td, th, blockquote, pre, dt, dd, figcaption, br, div, section, article";

/**
 * The readable text of an HTML page: title and content, without scripts, styles, navigation or footers.
 * Cheerio's full build (parse5, encoding sniffing, its own HTTP client: 2 MB of the server bundle) is
 * loaded with the first page, like the document readers above.
 */
export async function pageText(html: string): Promise<{ title: string | null; text: string }> {
  const { load } = await import("cheerio");
  const $ = load(html);
  $("script, style, noscript, template, svg, iframe, nav, footer, header, form, [aria-hidden=true], [hidden]").remove();
  const title = $("title").first().text().trim() || $("h1").first().text().trim() || null;
  $(BLOCKS).each((_, el) => {
    $(el).append("\n");
  });
  const root = $("main").length ? $("main") : $("body");
  return { title, text: tidy(root.text()) };
}

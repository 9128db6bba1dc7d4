// Text out of a stored document, by kind, within the caps of extraction-caps.ts: unpdf (PDF, the first
// pages), mammoth (DOCX, once its ZIP's sizes are checked), exceljs and papaparse (extract-tables.ts), TXT
// decoded by its BOM, as UTF-8 when it is valid, else as Windows-1252. A web page keeps its readable text
// (cheerio). It runs in the extraction's child process (extraction-child.ts), never in the service's.
import { readFile } from "node:fs/promises";
import type { KnowledgeFileKind } from "@adgen/schema";
import { csvText, xlsxText } from "./extract-tables.ts";
import { count, EXTRACTION_CAPS, TextBudget } from "./extraction-caps.ts";
import { type Extracted, ExtractionError } from "./extraction-error.ts";
import { checkPdfInflation } from "./pdf-inflate-check.ts";
import { decodeText, readHead, tidy } from "./plain-text.ts";
import { checkZipSizes } from "./zip-inspect.ts";

const withWarning = (text: string, warning: string | null): Extracted => (warning ? { text, warning } : { text });

async function pdfText(path: string): Promise<Extracted> {
  const { maxPdfPages } = EXTRACTION_CAPS;
  const budget = new TextBudget();
  let pages: number;
  const bytes = await readFile(path);
  checkPdfInflation(bytes, { perStream: EXTRACTION_CAPS.maxPdfStreamBytes, total: EXTRACTION_CAPS.maxPdfInflatedBytes });
  try {
    // Each reader is loaded when a file of its kind first arrives.
    const { getDocumentProxy } = await import("unpdf");
    // Errors only: a damaged PDF can make pdf.js warn for every operator it reads.
    const pdf = await getDocumentProxy(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), { verbosity: 0 });
    pages = pdf.numPages;
    for (let n = 1; n <= Math.min(pages, maxPdfPages); n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      const text = content.items.map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : "") : "")).join("");
      page.cleanup();
      if (!budget.add(`${text}\n\n`)) break;
    }
  } catch (error) {
    const why = (error as Error).message ?? "";
    if (/password/i.test(why)) throw new ExtractionError("The PDF is password-protected; save a copy without a password and upload that");
    throw new ExtractionError("The PDF could not be read (it is damaged or not a real PDF); export it again and upload the new file");
  }
  const text = tidy(budget.text());
  if (!text) {
    return {
      text: "",
      warning: "This PDF holds no text (it looks scanned: pages are pictures); upload a PDF with a text layer, or the text as a TXT file",
    };
  }
  const pagesCut =
    pages > maxPdfPages ? `Only the first ${count(maxPdfPages)} of ${count(pages)} pages are read; split the PDF to use the rest` : null;
  return withWarning(text, budget.warning() ?? pagesCut);
}

const DAMAGED_DOCX = "The Word document could not be read (it is damaged or not a real DOCX); save it again as .docx and upload that";

async function docxText(path: string): Promise<Extracted> {
  await checkZipSizes(path, "Word document", DAMAGED_DOCX);
  let value: string;
  try {
    const { default: mammoth } = await import("mammoth");
    ({ value } = await mammoth.extractRawText({ path }));
  } catch {
    throw new ExtractionError(DAMAGED_DOCX);
  }
  const budget = new TextBudget();
  budget.add(value);
  return withWarning(tidy(budget.text()), budget.warning());
}

/** A text file's start (up to the cap), decoded. */
async function plainText(path: string): Promise<Extracted> {
  const { maxPlainBytes } = EXTRACTION_CAPS;
  const head = await readHead(path, maxPlainBytes);
  const budget = new TextBudget();
  budget.add(decodeText(head.bytes, head.cut));
  const cutWarning = head.cut ? `Only the first ${count(maxPlainBytes / 1024 / 1024)} MB are read; split the file to use the rest` : null;
  return withWarning(tidy(budget.text()), budget.warning() ?? cutWarning);
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
      return csvText(path);
    case "txt":
      return plainText(path);
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

/** A stored web page's readable text (the page was capped at 5 MB when it was fetched). */
export async function storedPageText(path: string): Promise<Extracted> {
  const { text } = await pageText(decodeText(await readFile(path)));
  if (!text) throw new ExtractionError("The page has no readable text (it may be built by scripts or be empty); try another page");
  const budget = new TextBudget();
  budget.add(text);
  return withWarning(budget.text(), budget.warning());
}

// What one extraction may read and keep, whatever the file claims: pages, rows, cells, bytes unpacked and
// characters of text. A document past a cap that can be read in part (the first pages, rows or bytes) is
// `ready` with a warning; a container (or a PDF's streams) that would unpack past its caps is refused. The
// extraction's child process has a memory limit and a time limit on top of these (extraction-sandbox.ts).

const MB = 1024 * 1024;

export const EXTRACTION_CAPS = {
  /** Characters of text kept per item. */
  maxTextChars: 2_000_000,
  /** PDF pages read (the first ones). */
  maxPdfPages: 500,
  /** Bytes one compressed PDF stream (other than a picture) may inflate to, and all of them together. */
  maxPdfStreamBytes: 32 * MB,
  maxPdfInflatedBytes: 256 * MB,
  /** Rows read from a workbook (every sheet together) or a CSV file: 50,000 rows of 40 characters fill the text. */
  maxRows: 50_000,
  /** Cells read from a workbook or a CSV file. */
  maxCells: 500_000,
  /** Bytes one part of a DOCX or XLSX may unpack to, and all its parts together. */
  maxZipEntryBytes: 64 * MB,
  maxZipTotalBytes: 256 * MB,
  /** Bytes read from the start of a CSV or TXT file; a CSV line longer than maxLineBytes is refused. */
  maxPlainBytes: 8 * MB,
  maxLineBytes: 1 * MB,
} as const;

/** `n` with thousands separators, as the warnings say it. */
export const count = (n: number) => n.toLocaleString("en");

/** The text of a document as it is read, up to a number of characters: the reader stops once it is spent. */
export class TextBudget {
  private readonly parts: string[] = [];
  private used = 0;
  /** Set once some text was left out. */
  full = false;

  constructor(private readonly max: number = EXTRACTION_CAPS.maxTextChars) {}

  /** Keeps `text` (its start when it does not fit); answers whether there is room for more. */
  add(text: string): boolean {
    if (this.full) return false;
    const room = this.max - this.used;
    if (text.length > room) {
      this.parts.push(text.slice(0, room));
      this.used = this.max;
      this.full = true;
      return false;
    }
    this.parts.push(text);
    this.used += text.length;
    return true;
  }

  text(): string {
    return this.parts.join("");
  }

  /** The warning for text cut at the cap, or null. */
  warning(): string | null {
    return this.full ? `Only the first ${count(this.max)} characters are kept; split the document to use the rest` : null;
  }
}

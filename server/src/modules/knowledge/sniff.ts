// What kind of document a file is, judged by its content and its name together: a PDF starts with
// %PDF-, a DOCX or XLSX is a ZIP that holds word/ or xl/ parts, CSV and TXT are text (no NUL bytes,
// decodable). The name's ending must agree with the content, so an .exe renamed .pdf is refused.
import { open } from "node:fs/promises";
import { extname } from "node:path";
import { KNOWLEDGE_FILE_TYPES, type KnowledgeFileKind } from "@adgen/schema";

const HEAD_BYTES = 64 * 1024;
/** A ZIP's central directory (every part's name) is at its end. */
const TAIL_BYTES = 256 * 1024;

async function readEnds(path: string): Promise<{ head: Buffer; tail: Buffer }> {
  const file = await open(path, "r");
  try {
    const { size } = await file.stat();
    const head = Buffer.alloc(Math.min(HEAD_BYTES, size));
    await file.read(head, 0, head.length, 0);
    const tailLength = Math.min(TAIL_BYTES, size);
    const tail = Buffer.alloc(tailLength);
    await file.read(tail, 0, tailLength, size - tailLength);
    return { head, tail };
  } finally {
    await file.close();
  }
}

/** The kind of file its content says, or null when it is none of the accepted kinds. */
export function kindOfContent(head: Buffer, tail: Buffer): KnowledgeFileKind | "text" | null {
  if (head.subarray(0, 5).toString("latin1") === "%PDF-") return "pdf";
  if (head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) {
    const names = `${head.toString("latin1")}${tail.toString("latin1")}`;
    if (names.includes("word/document.xml")) return "docx";
    if (names.includes("xl/workbook.xml")) return "xlsx";
    return null;
  }
  return looksLikeText(head) ? "text" : null;
}

/** Text has no NUL bytes (outside UTF-16) and few control characters. */
function looksLikeText(head: Buffer): boolean {
  if (head.length === 0) return false;
  const utf16 = (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);
  if (utf16) return true;
  let control = 0;
  for (const byte of head) {
    if (byte === 0) return false;
    if (byte < 0x09 || (byte > 0x0d && byte < 0x20) || byte === 0x7f) control++;
  }
  return control / head.length < 0.01;
}

const kindOfName = (filename: string): KnowledgeFileKind | null => {
  const ending = extname(filename).toLowerCase();
  const found = Object.entries(KNOWLEDGE_FILE_TYPES).find(([, type]) => (type.extensions as readonly string[]).includes(ending));
  return found ? (found[0] as KnowledgeFileKind) : null;
};

export type Sniffed = { ok: true; kind: KnowledgeFileKind; mime: string } | { ok: false; reason: string };

const ACCEPTED = "a PDF, DOCX, XLSX, CSV or TXT file";
const LABEL: Record<KnowledgeFileKind, string> = {
  pdf: "a PDF",
  docx: "a Word document (DOCX)",
  xlsx: "an Excel workbook (XLSX)",
  csv: "CSV text",
  txt: "plain text",
};

/** Whether the file at `path`, uploaded as `filename`, is an accepted document, and which. */
export async function sniffKnowledgeFile(path: string, filename: string): Promise<Sniffed> {
  const named = kindOfName(filename);
  if (!named) {
    return { ok: false, reason: `"${filename || "The file"}" must be ${ACCEPTED} (its name must end in .pdf, .docx, .xlsx, .csv or .txt)` };
  }
  const { head, tail } = await readEnds(path);
  if (head.length === 0) return { ok: false, reason: `"${filename}" is empty; upload ${ACCEPTED} with some text in it` };
  const content = kindOfContent(head, tail);
  if (!content) {
    return {
      ok: false,
      reason: `"${filename}" is not ${ACCEPTED}: its content is not what its name says (judged by the file itself, not its name)`,
    };
  }
  const textual = named === "csv" || named === "txt";
  if (content === "text" ? !textual : content !== named) {
    const is = content === "text" ? "plain text" : LABEL[content];
    return {
      ok: false,
      reason: `"${filename}" is named as ${LABEL[named]} but its content is ${is}; rename it to match, or export it again`,
    };
  }
  return { ok: true, kind: named, mime: KNOWLEDGE_FILE_TYPES[named].mime };
}

// A PDF's FlateDecode streams inflated once, before pdf.js reads the file, each at most to a cap: pdf.js
// keeps a content stream's whole inflated bytes, so a 1 MB file whose one stream inflates to 1 GB of
// zeros would hold a gigabyte. Here no stream is inflated past what is left of the budget (zlib's
// maxOutputLength stops it there), and a file past a cap is refused with its reason. Pictures are left
// out: reading text never decodes them. A stream zlib cannot read (encrypted, damaged) is left to pdf.js,
// within the child's memory limit.
import { constants, inflateSync } from "node:zlib";
import { count } from "./extraction-caps.ts";
import { ExtractionError } from "./extraction-error.ts";

const MB = 1024 * 1024;

export interface InflateCaps {
  /** Bytes one stream may inflate to. */
  perStream: number;
  /** Bytes all streams together may inflate to. */
  total: number;
}

const STREAM = Buffer.from("stream");
const ENDSTREAM = Buffer.from("endstream");
/** How far before `stream` its dictionary is looked for. */
const DICTIONARY_BYTES = 2048;

/** The dictionary before the `stream` keyword at `at`: from the last `obj` (its object's start). */
function dictionaryBefore(pdf: Buffer, at: number): string {
  const before = pdf.subarray(Math.max(0, at - DICTIONARY_BYTES), at).toString("latin1");
  return before.slice(before.lastIndexOf("obj") + 1);
}

/** The data of the stream whose keyword is at `at`, or null when `at` is not a stream's start. */
function streamData(pdf: Buffer, at: number): { data: Buffer; end: number } | null {
  if (at >= 3 && pdf.subarray(at - 3, at).toString("latin1") === "end") return null;
  let start = at + STREAM.length;
  if (pdf[start] === 0x0d) start++;
  if (pdf[start] !== 0x0a && pdf[start - 1] !== 0x0d) return null;
  if (pdf[start] === 0x0a) start++;
  const end = pdf.indexOf(ENDSTREAM, start);
  return end < 0 ? { data: pdf.subarray(start), end: pdf.length } : { data: pdf.subarray(start, end), end: end + ENDSTREAM.length };
}

/** Inflated size of `data`, or null past `max` bytes. A damaged stream counts what it inflates to before it breaks. */
function inflatedSize(data: Buffer, max: number): number | null {
  try {
    // Sync flush: a stream cut short inflates as far as it goes instead of failing.
    return inflateSync(data, { maxOutputLength: Math.max(1, max), finishFlush: constants.Z_SYNC_FLUSH }).length;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") return null;
    return 0;
  }
}

/** Throws an ExtractionError when a stream of `pdf` (not a picture) inflates past the caps. */
export function checkPdfInflation(pdf: Buffer, caps: InflateCaps): void {
  let used = 0;
  for (let at = pdf.indexOf(STREAM); at >= 0; ) {
    const stream = streamData(pdf, at);
    if (!stream) {
      at = pdf.indexOf(STREAM, at + STREAM.length);
      continue;
    }
    const dictionary = dictionaryBefore(pdf, at);
    if (/\/FlateDecode|\/Fl\b/.test(dictionary) && !/\/Subtype\s*\/Image/.test(dictionary)) {
      const room = Math.min(caps.perStream, caps.total - used);
      const size = inflatedSize(stream.data, room);
      if (size === null) {
        throw new ExtractionError(
          room < caps.perStream
            ? `This PDF unpacks to more than ${count(caps.total / MB)} MB of page content; split it into smaller files and upload those`
            : `This PDF unpacks to more than ${count(caps.perStream / MB)} MB in one part; split it into smaller files and upload those`,
        );
      }
      used += size;
    }
    at = pdf.indexOf(STREAM, stream.end);
  }
}

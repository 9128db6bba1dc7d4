// Reads text back from rendered frames with tesseract.js and the English data from npm (offline: the
// language data is a local file, nothing is downloaded). One worker is shared and made on first use.
import eng from "@tesseract.js-data/eng";
import { createWorker, type Worker } from "tesseract.js";

let worker: Promise<Worker> | null = null;

function ocrWorker(): Promise<Worker> {
  worker ??= createWorker("eng", 1, { langPath: eng.langPath, gzip: eng.gzip, cacheMethod: "none" });
  return worker;
}

/** The text on a picture (PNG or JPEG bytes, or a file path), its lines as tesseract reads them. */
export async function readText(picture: Buffer | string): Promise<string[]> {
  const { data } = await (await ocrWorker()).recognize(picture);
  return data.text
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter((line) => line.length > 0);
}

/** Ends the shared worker (afterAll), so a test file's process can exit. */
export async function stopOcr(): Promise<void> {
  const running = worker;
  worker = null;
  if (running) await (await running).terminate();
}

/** Lower case, letters and digits only, single spaces: OCR's punctuation and spacing are unreliable. */
export const normalizeText = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();

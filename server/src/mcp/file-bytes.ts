// A file answer's bytes, for MCP, which carries files inside its messages (base64): read whole, and refused
// above a bound rather than held in memory without one (a long premium video is fetched over REST instead).
import { Readable } from "node:stream";
import { AppError } from "../errors.ts";
import type { FileResult } from "../operations/operation.ts";

/** The largest file an MCP answer carries (base64 makes it a third larger on the wire). */
export const MCP_FILE_MAX_BYTES = 32 * 1024 * 1024;

export async function fileBytes(file: FileResult): Promise<Buffer> {
  const size = file.ranged?.bytes ?? file.length ?? null;
  if (size !== null && size > MCP_FILE_MAX_BYTES) {
    throw new AppError(
      "PAYLOAD_TOO_LARGE",
      `${file.filename} is ${size} bytes, more than an MCP answer carries (${MCP_FILE_MAX_BYTES}): download it over REST instead`,
    );
  }
  const stream: AsyncIterable<Uint8Array | string> | string[] = file.ranged
    ? (file.ranged.read() as AsyncIterable<Uint8Array>)
    : typeof file.body === "string"
      ? [file.body]
      : Readable.fromWeb(file.body as import("node:stream/web").ReadableStream<Uint8Array>);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk);
    total += buffer.byteLength;
    if (total > MCP_FILE_MAX_BYTES)
      throw new AppError("PAYLOAD_TOO_LARGE", `${file.filename} is larger than an MCP answer carries: download it over REST`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

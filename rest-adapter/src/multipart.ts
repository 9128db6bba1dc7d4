// Uploads: a `multipart/form-data` request decoded without holding the file in memory. The file part is
// streamed to a temporary file and counted as it arrives; past the operation's limit nothing more is
// written, the rest of the request is read and discarded (so the client, still sending, gets to read the
// 413), and the operation is never called. Text parts become input fields beside the file.
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import Busboy from "@fastify/busboy";
import { DecodeError } from "./decode-error.ts";

/** How an upload operation receives its file (REST binding `upload`). */
export interface UploadBinding {
  /** The multipart part holding the file, e.g. `file`. */
  field: string;
  /** The largest file accepted, in bytes. */
  maxBytes: number;
}

/** The input field the file becomes: where it was written and what the client said about it. */
export interface ReceivedFile {
  path: string;
  filename: string;
  /** As declared by the client (not checked here). */
  contentType: string;
  bytes: number;
}

export interface MultipartInput {
  fields: Record<string, unknown>;
  /** Deletes the temporary file (the operation may already have moved it away). */
  cleanup(): Promise<void>;
}

/** Text parts beside the file: few and short. */
const MAX_FIELDS = 20;
const MAX_FIELD_BYTES = 10_000;

/** Bytes a multipart request may carry beyond its file (boundaries, part headers, text fields). */
export const MULTIPART_OVERHEAD_BYTES = MAX_FIELDS * MAX_FIELD_BYTES + 64 * 1024;

const describe = (bytes: number) => (bytes >= 1024 * 1024 ? `${+(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`);

/** A size error raised by whoever limits the request body upstream (the server's front door). */
const isTooLarge = (error: unknown): error is Error => error instanceof Error && (error as { status?: unknown }).status === 413;

export async function readMultipart(request: Request, binding: UploadBinding): Promise<MultipartInput> {
  const type = request.headers.get("content-type") ?? "";
  const how = `Send the file as multipart/form-data, in the part named ${binding.field}`;
  if (!/^multipart\/form-data\s*;.*boundary=/i.test(type)) throw new DecodeError(400, `${how} (Content-Type was ${type || "missing"})`);
  if (!request.body) throw new DecodeError(400, `${how}; the request had no body`);

  const dir = await mkdtemp(join(tmpdir(), "adgen-upload-"));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  const fields: Record<string, unknown> = {};
  const writes: Promise<unknown>[] = [];
  // The first thing wrong with the request; the operation is called only when there is none.
  let refusal: DecodeError | null = null;
  const refuse = (status: number, message: string) => {
    refusal ??= new DecodeError(status, message);
  };

  try {
    const parser = Busboy({
      headers: { "content-type": type },
      limits: { fileSize: binding.maxBytes, files: 1, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES, parts: MAX_FIELDS + 1 },
    });
    parser.on("file", (name, stream, filename, _encoding, mimeType) => {
      if (name !== binding.field || refusal) {
        if (name !== binding.field) refuse(400, `Unexpected file part "${name}". ${how}`);
        stream.resume();
        return;
      }
      const path = join(dir, "upload");
      const out = createWriteStream(path);
      stream.on("limit", () => {
        refuse(413, `${binding.field} is larger than ${describe(binding.maxBytes)}; send a smaller file`);
        stream.unpipe(out);
        out.end();
        // Read and discard the rest, so the client gets the answer instead of a reset connection.
        stream.resume();
      });
      stream.pipe(out);
      writes.push(
        finished(out).then(() => {
          if (!stream.truncated) fields[name] = { path, filename: filename ?? "", contentType: mimeType ?? "", bytes: stream.bytesRead };
        }),
      );
    });
    parser.on("field", (name, value, nameTruncated, valueTruncated) => {
      if (nameTruncated || valueTruncated) refuse(400, `The form field ${name} is longer than ${describe(MAX_FIELD_BYTES)}`);
      else if (name === binding.field) refuse(400, `${binding.field} must be a file, not text. ${how}`);
      else fields[name] = value;
    });
    parser.on("filesLimit", () => refuse(400, `Send one file per request. ${how}`));
    parser.on("fieldsLimit", () => refuse(400, `Too many form fields (at most ${MAX_FIELDS})`));
    parser.on("partsLimit", () => refuse(400, `Too many form parts (at most ${MAX_FIELDS + 1})`));

    const source = Readable.fromWeb(request.body as import("node:stream/web").ReadableStream<Uint8Array>);
    source.pipe(parser);
    try {
      await new Promise<void>((resolve, reject) => {
        parser.on("finish", resolve);
        parser.on("error", reject);
        source.on("error", reject);
      });
      await Promise.all(writes);
    } catch (error) {
      source.destroy();
      if (isTooLarge(error)) throw new DecodeError(413, error.message);
      if (refusal) throw refusal;
      throw new DecodeError(400, `The upload could not be read (${error instanceof Error ? error.message : String(error)}). ${how}`);
    }
    if (refusal) throw refusal;
    return { fields, cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

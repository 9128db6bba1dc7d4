// Jobs as MCP resources: `adgen://jobs/{jobId}` is a job's state (what `workflow.job` answers), and
// `adgen://jobs/{jobId}/files/{file}` each of its rendered files, with its MIME type (what `media.file`
// serves). Both are read through the catalogue's operations, so another account's job is the same 404 as
// everywhere. Subscribing to a job follows `workflow.stream` and says `resources/updated` on each event.
import type { ReadResourceResult, Resource, ResourceTemplate } from "@modelcontextprotocol/sdk/types.js";
import { AppError } from "../errors.ts";
import { invokeOperation } from "../operations/invoke.ts";
import { type FileResult, isFileResult, type OperationCall, type StreamItem } from "../operations/operation.ts";
import { operationNamed } from "../operations/operation-index.ts";
import type { RequestContext } from "../request-context.ts";
import { fileBytes } from "./file-bytes.ts";

export const jobResourceUri = (jobId: string) => `adgen://jobs/${encodeURIComponent(jobId)}`;
export const fileResourceUri = (jobId: string, file: string) => `${jobResourceUri(jobId)}/files/${encodeURIComponent(file)}`;

export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  {
    uriTemplate: "adgen://jobs/{jobId}",
    name: "job",
    title: "A job",
    description: "A job's state: status, step, progress, the result and the list of its rendered files (as resources)",
    mimeType: "application/json",
  },
  {
    uriTemplate: "adgen://jobs/{jobId}/files/{file}",
    name: "job-file",
    title: "A rendered file of a job",
    description: "A video, thumbnail, still, captions or voice-over of a job, with its MIME type",
  },
];

type Parsed = { jobId: string; file: string | null };

export function parseResourceUri(uri: string): Parsed {
  const match = /^adgen:\/\/jobs\/([^/]+)(?:\/files\/([^/]+))?$/.exec(uri);
  if (!match) {
    throw new AppError(
      "NOT_FOUND",
      `No resource at ${uri}: jobs are adgen://jobs/{jobId} and their files adgen://jobs/{jobId}/files/{file}`,
    );
  }
  return { jobId: decodeURIComponent(match[1]!), file: match[2] ? decodeURIComponent(match[2]) : null };
}

/** The rendered files a job's answer points at (`/api/media/{jobId}/{file}` URLs), as resources. */
export function filesOf(jobId: string, job: unknown): Resource[] {
  const text = JSON.stringify(job);
  const names = new Set<string>();
  const pattern = new RegExp(`/api/media/${jobId.replace(/[^\w-]/g, "")}/([\\w.-]+)`, "g");
  for (const match of text.matchAll(pattern)) names.add(match[1]!);
  return [...names].map((file) => ({ uri: fileResourceUri(jobId, file), name: file, mimeType: mimeTypeOf(file) }));
}

const MIME: Record<string, string> = {
  mp4: "video/mp4",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  wav: "audio/wav",
  vtt: "text/vtt",
  zip: "application/zip",
  pdf: "application/pdf",
  json: "application/json",
};
const mimeTypeOf = (file: string) => MIME[file.split(".").pop()?.toLowerCase() ?? ""] ?? "application/octet-stream";

export async function readResource(uri: string, ctx: RequestContext, call: OperationCall): Promise<ReadResourceResult> {
  const { jobId, file } = parseResourceUri(uri);
  if (file === null) {
    const job = JSON.parse(
      JSON.stringify(await invokeOperation({ operation: operationNamed("workflow.job"), ctx, call, readInput: () => ({ jobId }) })),
    );
    const files = filesOf(jobId, job);
    return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify({ ...job, files }) }] };
  }
  const answer = await invokeOperation({ operation: operationNamed("media.file"), ctx, call, readInput: () => ({ jobId, file }) });
  if (!isFileResult(answer)) throw new AppError("NOT_FOUND", `No file ${file} in job ${jobId}`);
  const bytes = await fileBytes(answer as FileResult);
  return { contents: [{ uri, mimeType: (answer as FileResult).contentType, blob: bytes.toString("base64") }] };
}

/**
 * Follows a job for a subscriber: `updated(uri)` on each of its events until it ends or `signal` aborts.
 * Opening the stream is the refusal point (another account's job: 404), so it is awaited by the caller.
 */
export async function followJob(
  uri: string,
  ctx: RequestContext,
  call: OperationCall,
  updated: (uri: string) => Promise<void>,
): Promise<void> {
  const { jobId, file } = parseResourceUri(uri);
  if (file !== null) throw new AppError("BAD_REQUEST", "Subscribe to a job (adgen://jobs/{jobId}); its files do not change once rendered");
  const items = (await invokeOperation({
    operation: operationNamed("workflow.stream"),
    ctx,
    call,
    readInput: () => ({ jobId }),
  })) as AsyncIterable<StreamItem>;
  void (async () => {
    try {
      for await (const _item of items) await updated(uri);
    } catch {
      // The subscriber went away (the signal aborted) or the session closed: nothing to tell.
    }
  })();
}

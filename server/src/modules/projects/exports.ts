// Exports: the projects as CSV, a streamed ZIP of videos and metadata (never built in memory), the
// account's own data as JSON, one video downloaded through the SSRF-safe fetcher, and background
// export jobs that leave a ZIP in media storage.
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { rename } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Job } from "@adgen/prisma";
import type { WorkflowResult } from "@adgen/schema";
import type { Services } from "../../request-context.ts";
import { AppError, Errors } from "../../errors.ts";
import { assertJobFileDeliverable, mediaContentType } from "../job-media/serve-media.ts";
import { jobMediaKey } from "../../media/storage.ts";
import { isMediaRemoved } from "../moderation/media-gate.ts";
import { QUEUE } from "../../queue/queue.ts";
import { loadProfile } from "../auth/to-profile.ts";
import { safeFetchStream } from "../net/safe-fetch.ts";
import { toProject } from "./projects.ts";

export interface ExportMessage {
  exportId: string;
}

function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
  // Quote always; double inner quotes; neutralise spreadsheet formulas.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

const CSV_COLUMNS = [
  "id",
  "name",
  "type",
  "status",
  "credits_used",
  "created_at",
  "rating",
  "final_video",
  "thumbnail",
  "formats",
  "concept",
  "error",
] as const;

function csvRow(job: Job): string {
  const result = job.result as WorkflowResult | null;
  const input = job.input as { concept?: string; formats?: string[] };
  const project = toProject(job);
  return [
    job.id,
    project.name,
    job.type,
    project.status,
    job.creditsUsed,
    project.created_at,
    job.rating ?? "",
    result?.finalVideo ?? "",
    result?.thumbnail ?? "",
    (input.formats ?? []).join(" "),
    input.concept ?? "",
    job.error ?? "",
  ]
    .map(csvCell)
    .join(",");
}

async function ownJobs(services: Services, user: { id: string }): Promise<Job[]> {
  return services.prisma.job.findMany({ where: { userId: user.id }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
}

export async function exportProjectsCsv(services: Services, user: { id: string }): Promise<{ filename: string; body: string }> {
  const jobs = await ownJobs(services, user);
  const body = `${[CSV_COLUMNS.join(","), ...jobs.map(csvRow)].join("\r\n")}\r\n`;
  return { filename: `projects-${new Date().toISOString().slice(0, 10)}.csv`, body };
}

/**
 * A project's folder in the ZIP: its name as a person reads it, made safe for every file system, and the
 * start of its id so two projects with one name keep apart ("cold-brew-for-night-shifts-1a2b3c4d").
 */
export function zipFolderOf(job: Pick<Job, "id">, name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48)
    .replace(/-+$/, "");
  const id = job.id.replace(/[^A-Za-z0-9]/g, "").slice(0, 8);
  return slug ? `${slug}-${id}` : id;
}

/**
 * Media keys of a job's finished files, with the names they get inside a ZIP. Only the job's own stored
 * media: the key is built from the job's id, never from a URL (a result may name any URL); a URL naming
 * another job's media is skipped, and a refunded job has no media.
 */
function jobFiles(job: Job): { key: string; name: string }[] {
  const result = job.result as WorkflowResult | null;
  // Only a completed job delivers files (a refund may still come before); a refunded job has none.
  if (!result || job.status !== "completed" || job.refundedAt || !Array.isArray(result.assets)) return [];
  const files: { key: string; name: string }[] = [];
  const folder = zipFolderOf(job, toProject(job).name);
  for (const asset of result.assets) {
    for (const url of [asset?.url, asset?.thumbnail]) {
      const match = typeof url === "string" ? url.match(/\/api\/media\/([^/?#]+)\/([^/?#]+)$/) : null;
      if (!match || match[1] !== job.id) continue;
      const file = match[2]!;
      if (!/^[A-Za-z0-9._-]+$/.test(file) || file.startsWith(".")) continue;
      // A still's thumbnail is the still itself: one entry per file (a ZIP must not repeat a name).
      if (!files.some((f) => f.name === `${folder}/${file}`)) files.push({ key: jobMediaKey(job.id, file), name: `${folder}/${file}` });
    }
  }
  return files;
}

/** archiver is loaded by the first export, not at start-up. */
async function buildZip(services: Services, jobs: Job[]): Promise<Readable> {
  // archiver 8 ships no types.
  // @ts-expect-error -- untyped ESM package
  const { ZipArchive } = await import("archiver");
  const zip = new ZipArchive({ zlib: { level: 1 } }) as Readable & {
    append(source: string | Buffer | Readable, data: { name: string }): void;
    finalize(): Promise<void>;
  };
  // One media file is opened at a time: the next is appended when archiver has written the previous one
  // (from an object store, each open file is a download in flight).
  let written = 0;
  const closed = new AbortController();
  zip.on("entry", () => written++);
  zip.once("close", () => closed.abort());
  const appended = async (source: Readable, name: string, count: number) => {
    zip.append(source, { name });
    while (written < count) await once(zip, "entry", { signal: closed.signal });
  };
  zip.append(JSON.stringify(jobs.map(toProject), null, 2), { name: "projects.json" });
  zip.append(`${[CSV_COLUMNS.join(","), ...jobs.map(csvRow)].join("\r\n")}\r\n`, { name: "projects.csv" });
  (async () => {
    let count = 2;
    for (const job of jobs) {
      // A project removed by a moderation decision keeps its metadata here but none of its media.
      if (await isMediaRemoved(services.prisma, job.id)) continue;
      for (const file of jobFiles(job)) {
        if (await services.media.stat(file.key)) await appended(services.media.read(file.key), file.name, ++count);
      }
    }
    await zip.finalize();
  })().catch((error: Error) => zip.destroy(error));
  return zip;
}

/** A ZIP of every project's files and metadata, streamed as it is written. */
export async function exportProjectsZip(
  services: Services,
  user: { id: string },
): Promise<{ filename: string; stream: ReadableStream<Uint8Array> }> {
  const jobs = await ownJobs(services, user);
  return {
    filename: `projects-${new Date().toISOString().slice(0, 10)}.zip`,
    stream: Readable.toWeb(await buildZip(services, jobs)) as ReadableStream<Uint8Array>,
  };
}

/** GET /export without `source`: everything the service holds about the account, as JSON. */
export async function exportAccountData(services: Services, user: { id: string }) {
  const { prisma } = services;
  const [profile, jobs, ledger, brand, prefs, audit] = await Promise.all([
    loadProfile(prisma, user.id),
    prisma.job.findMany({ where: { userId: user.id }, orderBy: { createdAt: "desc" } }),
    prisma.creditLedgerEntry.findMany({ where: { userId: user.id }, orderBy: { createdAt: "asc" } }),
    prisma.brandProfile.findFirst({ where: { userId: user.id, isDefault: true } }),
    prisma.workflowPreferences.findUnique({ where: { userId: user.id } }),
    prisma.auditLog.findMany({ where: { OR: [{ actorId: user.id }, { targetId: user.id }] }, orderBy: { createdAt: "asc" }, take: 1000 }),
  ]);
  return {
    exportedAt: new Date().toISOString(),
    profile,
    projects: jobs.map(toProject),
    ledger: ledger.map((e) => ({
      id: e.id,
      delta: e.delta,
      balanceAfter: e.balanceAfter,
      reason: e.reason,
      reference: e.reference,
      note: e.note,
      createdAt: e.createdAt.toISOString(),
    })),
    brand: brand ? { id: brand.id, ...(brand.profile as object) } : null,
    workflowPreferences: prefs?.prefs ?? {},
    activity: audit.map((a) => ({
      action: a.action,
      targetType: a.targetType,
      targetId: a.targetId,
      ip: a.ip,
      at: a.createdAt.toISOString(),
    })),
  };
}

/**
 * GET /export?source=URL: one video. The service's own media URLs are served from storage (owner only);
 * anything else must be https on EXPORT_ALLOWED_HOSTS and is fetched through the SSRF-safe fetcher.
 */
export async function exportSource(services: Services, user: { id: string; role: string }, source: string) {
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    throw new AppError("BAD_REQUEST", "source must be an https URL of a video");
  }
  const own = new URL(services.config.publicUrl);
  const match = url.origin === own.origin ? url.pathname.match(/^\/api\/media\/([^/]+)\/([^/]+)$/) : null;
  if (match) {
    const job = await services.prisma.job.findUnique({ where: { id: match[1]! } });
    if (!job || (job.userId !== user.id && user.role !== "admin")) throw Errors.notFound("Video");
    if (match[2]!.startsWith(".")) throw Errors.notFound("Video");
    // Refunded (none, even if a file lingers), not completed yet (409), removed by moderation: the media route's rule.
    await assertJobFileDeliverable(services.prisma, job, match[2]!, "Video");
    const key = jobMediaKey(job.id, match[2]!);
    const info = await services.media.stat(key);
    if (!info) throw Errors.notFound("Video");
    return {
      filename: match[2]!,
      contentType: mediaContentType(match[2]!),
      length: info.bytes,
      stream: Readable.toWeb(services.media.read(key)) as ReadableStream<Uint8Array>,
    };
  }
  const response = await safeFetchStream(url.toString(), {
    protocols: ["https:"],
    allowedHosts: services.config.exportAllowedHosts,
    resolver: services.resolver,
    maxBytes: 500 * 1024 * 1024,
    timeoutMs: 30_000,
  });
  if (response.status !== 200) throw new AppError("BAD_REQUEST", `source answered ${response.status}; expected 200 with a video`);
  const name = decodeURIComponent(new URL(response.url).pathname.split("/").pop() || "video.mp4");
  return {
    filename: name.endsWith(".mp4") ? name : `${name}.mp4`,
    contentType: "video/mp4",
    length: Number(response.headers.get("content-length")) || null,
    stream: response.body,
  };
}

/** POST /export: starts a background export; the ZIP appears in storage when done. */
export async function startExport(services: Services, user: { id: string }) {
  const request = await services.prisma.exportRequest.create({ data: { userId: user.id } });
  await services.queue.send<ExportMessage>(QUEUE.export, { exportId: request.id });
  return exportView(services, request);
}

export async function getExport(services: Services, user: { id: string }, exportId: string) {
  const request = await services.prisma.exportRequest.findUnique({ where: { id: exportId } });
  if (!request || request.userId !== user.id) throw Errors.notFound("Export");
  return exportView(services, request);
}

function exportView(
  services: Services,
  r: {
    id: string;
    status: string;
    bytes: number | null;
    error: string | null;
    createdAt: Date;
    completedAt: Date | null;
    fileKey: string | null;
  },
) {
  return {
    exportId: r.id,
    status: r.status,
    bytes: r.bytes,
    error: r.error,
    createdAt: r.createdAt.toISOString(),
    completedAt: r.completedAt?.toISOString() ?? null,
    downloadUrl: r.status === "completed" ? `${services.config.publicUrl}/api/export/${r.id}/download` : null,
  };
}

export async function downloadExport(services: Services, user: { id: string }, exportId: string) {
  const request = await services.prisma.exportRequest.findUnique({ where: { id: exportId } });
  if (!request || request.userId !== user.id) throw Errors.notFound("Export");
  if (request.status !== "completed" || !request.fileKey)
    throw new AppError("CONFLICT", `Export is ${request.status}; try again when it is completed`);
  return {
    filename: `export-${request.id}.zip`,
    length: request.bytes,
    stream: Readable.toWeb(services.media.read(request.fileKey)) as ReadableStream<Uint8Array>,
  };
}

export async function runExport(services: Services, exportId: string): Promise<void> {
  const request = await services.prisma.exportRequest.findUnique({ where: { id: exportId } });
  if (!request || request.status === "completed") return;
  await services.prisma.exportRequest.update({ where: { id: exportId }, data: { status: "processing" } });
  try {
    const jobs = await services.prisma.job.findMany({ where: { userId: request.userId }, orderBy: { createdAt: "desc" } });
    const dir = await services.media.scratchDir(`exports/${exportId}`);
    const file = join(dir, "export.zip");
    await pipeline(await buildZip(services, jobs), createWriteStream(`${file}.part`));
    await rename(`${file}.part`, file);
    const key = `exports/${request.userId}/${exportId}.zip`;
    const stored = await services.media.put(key, file);
    await services.prisma.exportRequest.update({
      where: { id: exportId },
      data: { status: "completed", fileKey: key, bytes: stored.bytes, completedAt: new Date() },
    });
  } catch (error) {
    await services.prisma.exportRequest.update({
      where: { id: exportId },
      data: { status: "failed", error: (error as Error).message.slice(0, 500) },
    });
    throw error;
  }
}

// GET /admin/health: each part the service depends on, checked now, with its status and latency:
// the database, the queue, storage (free space, and that a file can be written), ffmpeg, and each
// provider (the built-in studio renderer; each remote provider probed when configured, else said so:
// health-providers.ts), and outgoing mail (health-mail.ts).
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { AdminHealth } from "@adgen/schema";
import type { Services } from "../../request-context.ts";
import type { AuditSource } from "../audit/record-audit.ts";
import { QUEUE } from "../../queue/queue.ts";
import { locateFfmpeg } from "../render/ffmpeg.ts";
import { auditAdminRead } from "../audit/admin-audit.ts";
import { checkMail } from "./health-mail.ts";
import { checkProviders } from "./health-providers.ts";
import { diskSpace } from "./system.ts";

type Check = AdminHealth["checks"][number];

/** Below this much free space storage is `degraded` (renders and uploads may fail). */
const LOW_DISK_BYTES = 1024 ** 3;

async function timed(name: string, probe: () => Promise<Pick<Check, "status" | "detail">>): Promise<Check> {
  const started = performance.now();
  let outcome: Pick<Check, "status" | "detail">;
  try {
    outcome = await probe();
  } catch (error) {
    outcome = { status: "error", detail: (error as Error).message.slice(0, 300) };
  }
  return { name, ...outcome, latencyMs: Math.round((performance.now() - started) * 100) / 100 };
}

const gib = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(1)} GiB`;

function ffmpegVersion(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(path, ["-hide_banner", "-version"], { stdio: ["ignore", "pipe", "ignore"] });
    let out = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out.split("\n")[0]?.trim() ?? "ffmpeg");
      else reject(new Error(`ffmpeg -version exited with ${code}`));
    });
  });
}

export async function checkHealth(services: Services): Promise<AdminHealth> {
  const checks = await Promise.all([
    timed("database", async () => {
      await services.db.sql.query("SELECT 1");
      return { status: "ok", detail: services.db.engine === "postgres" ? "PostgreSQL" : "embedded PostgreSQL (PGlite)" };
    }),
    timed("queue", async () => {
      const queue = await services.queue.boss.getQueue(QUEUE.workflow);
      return queue
        ? { status: "ok", detail: "pg-boss on the service database" }
        : { status: "error", detail: "the workflow queue does not exist" };
    }),
    timed("storage", async () => {
      const probe = join(services.config.dataDir, `.health-${randomUUID()}`);
      await writeFile(probe, "ok");
      await rm(probe, { force: true });
      const disk = await diskSpace(services.config.dataDir);
      if (!disk) return { status: "degraded", detail: "writable; free space unknown" };
      const detail = `${gib(disk.freeBytes)} free of ${gib(disk.totalBytes)}`;
      return { status: disk.freeBytes < LOW_DISK_BYTES ? "degraded" : "ok", detail };
    }),
    timed("ffmpeg", async () => ({ status: "ok", detail: await ffmpegVersion(locateFfmpeg()) })),
    ...(services.config.media.kind === "s3" ? [timed("media bucket", () => checkBucket(services))] : []),
  ]);
  const ffmpeg = checks.find((check) => check.name === "ffmpeg")!;
  checks.push(
    {
      name: "provider: built-in studio renderer",
      status: ffmpeg.status,
      latencyMs: ffmpeg.latencyMs,
      detail: "renders every ad with ffmpeg",
    },
    ...(await checkProviders(services)),
    await checkMail(services),
  );
  const status = checks.some((check) => check.status === "error")
    ? "error"
    : checks.some((check) => check.status === "degraded")
      ? "degraded"
      : "ok";
  return { status, checkedAt: new Date().toISOString(), checks };
}

/** The shared bucket answers a listing: it exists, it is reachable, and the credentials are accepted. */
async function checkBucket(services: Services): Promise<{ status: "ok" | "error"; detail: string }> {
  const media = services.config.media;
  const bucket = media.kind === "s3" ? media.bucket : "";
  try {
    await services.media.list("health/");
    return { status: "ok", detail: `S3 bucket ${bucket} answers` };
  } catch (error) {
    return {
      status: "error",
      detail: `S3 bucket ${bucket} cannot be read (${(error as Error).message}): check S3_BUCKET, S3_ENDPOINT and the keys`,
    };
  }
}

export async function adminHealth(services: Services, source: AuditSource): Promise<AdminHealth> {
  await auditAdminRead(services, source, "admin.health_viewed");
  return checkHealth(services);
}

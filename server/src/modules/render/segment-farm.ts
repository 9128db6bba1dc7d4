// Scenes spread over workers (render by scene): a render's segments that are not in the cache become rows of
// `render_segment_tasks` and messages on the `render-segment` queue. Any worker that shares the database and
// the media store can take one: it fetches the composition's inputs from the store (content-addressed under
// `cache/inputs/`), encodes, and puts the segment into the segment cache. The job's own worker takes its
// tasks too, waits for the rest and joins them. A task whose worker died is taken again after its lease; a
// task that fails three times fails the render, and so the job, which refunds (nothing is charged twice: the
// charge is the launch's). An account holds at most two encodes per job its plan may run at once.
import { copyFile, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { randomUUID } from "node:crypto";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { concurrentJobsFor } from "@adgen/schema";
import type { PrismaClient } from "@adgen/prisma";
import type { MediaStorage } from "../../media/storage.ts";
import { type JobQueue, QUEUE } from "../../queue/queue.ts";
import { fileHash, type SegmentCache, type SegmentFarm, type SegmentWork } from "./scene-segments.ts";
import type { VideoRenderer } from "./types.ts";

/** Encodes one plan slot may hold at once (the two a render ran in one process before segments were queued). */
export const ENCODES_PER_SLOT = 2;
/** A running task not finished within this long is taken to have lost its worker, and is queued again. */
const LEASE_MS = 120_000;
const MAX_ATTEMPTS = 3;
const LOOK_EVERY_MS = 50;

/** The broadcast that wakes every instance's segment workers when a render queues segments. */
export const SEGMENTS_QUEUED = "render-segments-queued";

export interface SegmentMessage {
  key: string;
}

/** What a queued segment carries: its composition with small files inline and inputs by content hash. */
interface SegmentPayload {
  args: string[];
  graph: string;
  files: { name: string; base64: string }[];
  links: { name: string; input: string }[];
  frames: number;
  fps: number;
  thumb: boolean;
  /** The worker whose render it is: its own process leaves the task to that worker's own turns. */
  owner: string;
}

export interface SegmentFarmDeps {
  prisma: PrismaClient;
  queue: JobQueue;
  media: MediaStorage;
  cache: SegmentCache;
  /** This worker, as recorded on the tasks it takes (and summed per worker by `pnpm bench render`). */
  workerName: string;
  /** Segments a render's own worker encodes at once (2: as a render in one process did). */
  ownEncodes?: number;
  /** Wakes this process's segment worker now rather than at its next poll. */
  wake?: () => void;
}

/** A name for a worker: its machine, process and instance (a process may run more than one service). */
export const newWorkerName = () => `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

const inputKey = (hash: string) => `cache/inputs/${hash}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Takes a queued task for this process: for a helper only while the account is under its share of encodes. */
async function claim(prisma: PrismaClient, worker: string, key: string, share: number | null): Promise<boolean> {
  const taken =
    share === null
      ? await prisma.$executeRaw`UPDATE render_segment_tasks SET status = 'running', worker = ${worker},
          claimed_at = now(), attempts = attempts + 1, updated_at = now() WHERE key = ${key} AND status = 'queued'`
      : await prisma.$executeRaw`UPDATE render_segment_tasks t SET status = 'running', worker = ${worker},
          claimed_at = now(), attempts = attempts + 1, updated_at = now()
          WHERE t.key = ${key} AND t.status = 'queued'
            AND (SELECT count(*) FROM render_segment_tasks r WHERE r.user_id = t.user_id AND r.status = 'running') < ${share}`;
  return taken === 1;
}

async function finish(prisma: PrismaClient, worker: string, key: string, startedAt: number): Promise<void> {
  await prisma.renderSegmentTask.updateMany({
    where: { key, worker, status: "running" },
    data: { status: "done", busyMs: Date.now() - startedAt, error: null },
  });
}

async function release(prisma: PrismaClient, worker: string, key: string, error: unknown): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  const row = await prisma.renderSegmentTask.findUnique({ where: { key }, select: { attempts: true } });
  await prisma.renderSegmentTask.updateMany({
    where: { key, worker, status: "running" },
    data: { status: (row?.attempts ?? 0) >= MAX_ATTEMPTS ? "failed" : "queued", error: message.slice(0, 2000) },
  });
}

/** Keeps a copy of `file` in the store under `key` (the store may move what it is given). */
async function putCopy(media: MediaStorage, key: string, file: string): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "adgen-input-"));
  try {
    await copyFile(file, join(dir, "input"));
    await media.put(key, join(dir, "input"));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The payload of `work`, its inputs stored by content so that any machine can fetch them. */
async function payloadOf(media: MediaStorage, work: SegmentWork, owner: string): Promise<SegmentPayload> {
  const links = [];
  for (const link of work.links) {
    const hash = await fileHash(link.target);
    if (!(await media.stat(inputKey(hash)))) await putCopy(media, inputKey(hash), link.target);
    links.push({ name: link.name, input: hash });
  }
  return {
    args: work.args,
    graph: work.graph,
    files: work.files.map((f) => ({ name: f.name, base64: Buffer.from(f.content).toString("base64") })),
    links,
    frames: work.frames,
    fps: work.fps,
    thumb: work.thumb,
    owner,
  };
}

export function createSegmentFarm(deps: SegmentFarmDeps): SegmentFarm {
  const { prisma, queue, media } = deps;
  return {
    async encode({ owner, work, encodeHere, onDone, signal }) {
      const job = await prisma.job.findUnique({ where: { id: owner.jobId }, select: { userId: true } });
      if (!job) throw new Error(`job ${owner.jobId} is not in the database: its segments cannot be queued`);
      const byKey = new Map(work.map((w) => [w.key, w]));
      for (const item of work) {
        const payload = JSON.parse(JSON.stringify(await payloadOf(media, item, deps.workerName)));
        const row = { jobId: owner.jobId, userId: job.userId, payload, status: "queued", attempts: 0, error: null, worker: null };
        // Equal work is one task: a task of another job still queued or running is waited for, not repeated.
        await prisma.renderSegmentTask.upsert({ where: { key: item.key }, create: { key: item.key, ...row }, update: {} });
        await prisma.renderSegmentTask.updateMany({ where: { key: item.key, status: { in: ["done", "failed"] } }, data: row });
        await queue.send(QUEUE.renderSegment, { key: item.key } satisfies SegmentMessage);
      }
      deps.wake?.();
      const pending = new Set(byKey.keys());
      // The job's own worker encodes as a render in one process did (two at once); other workers take the
      // rest while the account is under its share. One turn: take a queued task, or look at the others.
      let stopped = false;
      const turns = async () => {
        while (pending.size && !stopped) {
          if (signal?.aborted) throw signal.reason ?? new Error("aborted");
          let mine: string | null = null;
          for (const key of pending) {
            if (await claim(prisma, deps.workerName, key, null)) {
              mine = key;
              break;
            }
          }
          if (mine) {
            const startedAt = Date.now();
            try {
              await encodeHere(byKey.get(mine)!);
            } catch (error) {
              await release(prisma, deps.workerName, mine, error);
              if (signal?.aborted) throw error;
              continue;
            }
            await finish(prisma, deps.workerName, mine, startedAt);
            pending.delete(mine);
            continue;
          }
          await lookAtOthers();
          if (pending.size) await sleep(LOOK_EVERY_MS);
        }
      };
      /** Segments other workers finished, failed or dropped (a dead worker's task is queued again). */
      const lookAtOthers = async () => {
        const rows = await prisma.renderSegmentTask.findMany({
          where: { key: { in: [...pending] } },
          select: { key: true, status: true, claimedAt: true, error: true, worker: true },
        });
        for (const row of rows) {
          if (row.status === "done" && pending.delete(row.key)) onDone(row.key);
          else if (row.status === "failed") {
            throw new Error(`a scene segment could not be encoded (${row.worker ?? "a worker"}: ${row.error ?? "no reason given"})`);
          } else if (row.status === "running" && row.claimedAt && Date.now() - row.claimedAt.getTime() > LEASE_MS) {
            await prisma.renderSegmentTask.updateMany({
              where: { key: row.key, status: "running", claimedAt: row.claimedAt },
              data: { status: "queued" },
            });
          }
        }
      };
      try {
        await Promise.all(Array.from({ length: Math.min(deps.ownEncodes ?? 2, work.length) }, turns));
      } finally {
        stopped = true;
      }
    },
  };
}

/**
 * A worker's turn at a queued segment (the `render-segment` queue): taken only while the account is under
 * its share, encoded from the stored inputs, kept in the segment cache. A task taken elsewhere is left alone.
 */
export async function encodeQueuedSegment(deps: HelperDeps, key: string): Promise<boolean> {
  const { prisma, media, cache, renderer, workerName } = deps;
  if (!renderer.encodeSegment) return false;
  const task = await prisma.renderSegmentTask.findUnique({ where: { key } });
  if (task?.status !== "queued") return false;
  const payload = task.payload as unknown as SegmentPayload;
  // This instance's own render takes its tasks itself (two at once); its helper is for other machines' jobs.
  if (payload.owner === workerName) return false;
  const account = await prisma.user.findUnique({ where: { id: task.userId }, select: { currentPlanId: true } });
  const share = concurrentJobsFor(account?.currentPlanId ?? "trial") * ENCODES_PER_SLOT;
  if (!(await claim(prisma, workerName, key, share))) return false;
  const startedAt = Date.now();
  const dir = await mkdtemp(join(tmpdir(), "adgen-segment-task-"));
  try {
    await writeFile(join(dir, "graph.txt"), payload.graph);
    for (const file of payload.files) await writeFile(join(dir, file.name), Buffer.from(file.base64, "base64"));
    for (const link of payload.links) await symlink(await media.localFile(inputKey(link.input)), join(dir, link.name));
    await renderer.encodeSegment({ dir, args: payload.args, durationSec: payload.frames / payload.fps });
    await cache.put(key, join(dir, "video.mp4"));
    if (payload.thumb) await cache.put(`${key}.thumb`, join(dir, "thumb.jpg"));
    await finish(prisma, workerName, key, startedAt);
  } catch (error) {
    await release(prisma, workerName, key, error);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return true;
}

type HelperDeps = Pick<SegmentFarmDeps, "prisma" | "media" | "cache" | "workerName"> & { renderer: VideoRenderer };

/**
 * A process's segment helper: woken by a queue message or by the broadcast, it takes queued tasks of other
 * workers' renders one after another, oldest first, until none is left that it may take. A message is only
 * a wake-up call, so one taken by a process with nothing to do loses no work for the others. One run at a
 * time per process; a wake-up during a run makes it look again.
 */
export function createSegmentHelper(deps: HelperDeps): { wake(): Promise<void> } {
  let running: Promise<void> | null = null;
  let again = false;
  const run = async () => {
    do {
      again = false;
      for (;;) {
        const queued = await deps.prisma.renderSegmentTask.findMany({
          where: { status: "queued", NOT: { payload: { path: ["owner"], equals: deps.workerName } } },
          orderBy: { createdAt: "asc" },
          select: { key: true },
          take: 10,
        });
        let took = false;
        for (const { key } of queued) {
          if (await encodeQueuedSegment(deps, key)) {
            took = true;
            break;
          }
        }
        if (!took) break;
      }
    } while (again);
  };
  return {
    wake() {
      if (running) {
        again = true;
        return running;
      }
      running = run().finally(() => {
        running = null;
      });
      return running;
    },
  };
}

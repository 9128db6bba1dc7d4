// Local copies of objects from a remote store, for tools that need a file (ffmpeg opens a job's pictures
// and voice-over; knowledge extraction parses a document; publishing uploads a video). A copy is
// downloaded once per version (its ETag), streamed to disk, and deleted after an hour without use, so a
// worker's disk holds what its recent jobs needed and no more.
import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm, rmdir, stat, utimes } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { walkFiles } from "./storage.ts";

const TTL_MS = 60 * 60 * 1000;
const SWEEP_EVERY_MS = 5 * 60 * 1000;

export interface CacheSource {
  /** The object's current version (null: it does not exist). */
  version(key: string): Promise<string | null>;
  read(key: string): Readable;
}

export class DownloadCache {
  private readonly versions = new Map<string, string>();
  private readonly pending = new Map<string, Promise<string>>();
  private lastSweep = Date.now();

  /** `root` is this machine's cache folder; `source` is the store copies come from. */
  constructor(
    readonly root: string,
    private readonly source: CacheSource,
  ) {}

  /** A local path holding `key`'s current bytes (downloaded if this machine has no copy of that version). */
  file(key: string): Promise<string> {
    const running = this.pending.get(key);
    if (running) return running;
    const job = this.fetch(key).finally(() => this.pending.delete(key));
    this.pending.set(key, job);
    if (Date.now() - this.lastSweep > SWEEP_EVERY_MS) {
      this.lastSweep = Date.now();
      void this.sweep().catch(() => {});
    }
    return job;
  }

  private async fetch(key: string): Promise<string> {
    const path = join(this.root, key);
    const version = await this.source.version(key);
    if (version === null) throw Object.assign(new Error(`media file not found: ${key}`), { code: "ENOENT" });
    if (this.versions.get(key) === version && (await isFile(path))) {
      const now = new Date();
      await utimes(path, now, now);
      return path;
    }
    await mkdir(dirname(path), { recursive: true });
    const part = `${path}.${randomUUID()}.part`;
    try {
      await pipeline(this.source.read(key), createWriteStream(part));
      await rename(part, path);
    } catch (error) {
      await rm(part, { force: true });
      throw error;
    }
    this.versions.set(key, version);
    return path;
  }

  /** Forgets and deletes the copies of `prefix` and everything under it. */
  async drop(prefix: string): Promise<void> {
    for (const key of this.versions.keys()) if (key === prefix || key.startsWith(`${prefix}/`)) this.versions.delete(key);
    await rm(join(this.root, prefix), { recursive: true, force: true, maxRetries: 3, retryDelay: 50 });
  }

  /** Deletes copies unused for an hour (their modification time is their last use) and the folders they leave empty. */
  async sweep(now = Date.now()): Promise<void> {
    const folders = new Set<string>();
    await walkFiles(this.root, async (path, relative) => {
      const info = await stat(path).catch(() => null);
      if (!info || now - info.mtimeMs < TTL_MS) return;
      await rm(path, { force: true });
      this.versions.delete(relative);
      folders.add(dirname(path));
    });
    for (const folder of folders) {
      // rmdir refuses a folder that still holds something, which is where the climb stops.
      for (let dir = folder; dir.startsWith(`${this.root}/`); dir = dirname(dir)) if (!(await removedIfEmpty(dir))) break;
    }
  }
}

async function removedIfEmpty(dir: string): Promise<boolean> {
  return rmdir(dir).then(
    () => true,
    () => false,
  );
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isFile() ?? false;
}

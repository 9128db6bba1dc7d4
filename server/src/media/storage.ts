// Where rendered media live. The local store keeps files under DATA_DIR/media (the default); the S3 store
// (s3-storage.ts, MEDIA_STORAGE=s3) keeps them in a bucket every machine shares. Keys look like
// `jobs/<jobId>/<file>`. Everything that reads or writes media goes through this interface.
import { createReadStream, existsSync } from "node:fs";
import { copyFile, mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import { dirname, join, normalize, sep } from "node:path";
import type { Readable } from "node:stream";

export interface MediaStorage {
  /** Moves (or copies) a finished local file into the store under `key`. */
  put(key: string, localPath: string): Promise<{ key: string; bytes: number }>;
  stat(key: string): Promise<{ bytes: number; modifiedAt: Date } | null>;
  /** The bytes of `key` (inclusive `range`), streamed: never the whole file in memory. */
  read(key: string, range?: { start: number; end: number }): Readable;
  /**
   * A file on this machine holding `key`'s bytes, for tools that need a path (ffmpeg, parsers, uploads).
   * Read it, never change it: for the local store it is the stored file itself.
   */
  localFile(key: string): Promise<string>;
  /** A scratch directory on this machine for work in progress on `key`'s prefix. */
  scratchDir(prefix: string): Promise<string>;
  /** Deletes `prefix` and everything under it (a file or a whole folder such as `jobs/<jobId>`); absent is fine. */
  remove(prefix: string): Promise<void>;
  /** Every stored file under the folder `prefix` (such as `jobs`), with its size. */
  list(prefix: string): Promise<{ key: string; bytes: number }[]>;
  /** Files and bytes the store holds (the admin system report). */
  usage(): Promise<{ files: number; bytes: number }>;
  /** Releases connections (a remote store); the local store has none. */
  close?(): void;
}

export class LocalMediaStorage implements MediaStorage {
  constructor(readonly root: string) {}

  /** Where `key` lives on disk (the local store only; elsewhere use `localFile`). */
  localPath(key: string): string {
    const path = normalize(join(this.root, key));
    if (!path.startsWith(this.root + sep)) throw new Error(`media key escapes the store: ${key}`);
    return path;
  }

  async put(key: string, localPath: string) {
    const target = this.localPath(key);
    await mkdir(dirname(target), { recursive: true });
    await rename(localPath, target).catch(async () => {
      await copyFile(localPath, `${target}.part`);
      await rename(`${target}.part`, target);
      await rm(localPath, { force: true });
    });
    return { key, bytes: (await stat(target)).size };
  }

  async stat(key: string) {
    const path = this.localPath(key);
    if (!existsSync(path)) return null;
    const info = await stat(path);
    return info.isFile() ? { bytes: info.size, modifiedAt: info.mtime } : null;
  }

  read(key: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.localPath(key), range);
  }

  async localFile(key: string): Promise<string> {
    return this.localPath(key);
  }

  async list(prefix: string): Promise<{ key: string; bytes: number }[]> {
    const out: { key: string; bytes: number }[] = [];
    await walkFiles(this.localPath(prefix), async (path, relative) => {
      out.push({ key: `${prefix}/${relative}`, bytes: (await stat(path).catch(() => ({ size: 0 }))).size });
    });
    return out;
  }

  async usage(): Promise<{ files: number; bytes: number }> {
    let files = 0;
    let bytes = 0;
    await walkFiles(this.root, async (path) => {
      files += 1;
      bytes += (await stat(path).catch(() => ({ size: 0 }))).size;
    });
    return { files, bytes };
  }

  async scratchDir(prefix: string): Promise<string> {
    const dir = this.localPath(join(".work", prefix));
    await mkdir(dir, { recursive: true });
    return dir;
  }

  async remove(prefix: string): Promise<void> {
    // Retries: a worker may be moving a file into the folder while it is being removed (ENOTEMPTY).
    await rm(this.localPath(prefix), { recursive: true, force: true, maxRetries: 3, retryDelay: 50 });
  }
}

export function jobMediaKey(jobId: string, file: string): string {
  return `${jobMediaPrefix(jobId)}/${file}`;
}

/** The folder of one job's media (`jobs/<jobId>`): what a refund deletes. */
export function jobMediaPrefix(jobId: string): string {
  // A job id is one path segment; anything else could name another job's folder or the whole store.
  if (!/^[A-Za-z0-9_-]+$/.test(jobId)) throw new Error(`not a job id: ${jobId}`);
  return `jobs/${jobId}`;
}

/** Calls `visit` for every regular file under `dir` (its path, and its path relative to `dir` with `/`), without following links. */
export async function walkFiles(dir: string, visit: (path: string, relative: string) => Promise<void>): Promise<void> {
  const walk = async (relative: string): Promise<void> => {
    const entries = await readdir(relative ? join(dir, relative) : dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(child);
      else if (entry.isFile()) await visit(join(dir, child), child);
    }
  };
  await walk("");
}

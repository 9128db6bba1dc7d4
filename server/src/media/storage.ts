// Where rendered media live. The local store keeps files under DATA_DIR/media; a remote object store
// can implement the same interface. Keys look like `jobs/<jobId>/<file>`.
import { createReadStream, existsSync } from "node:fs";
import { copyFile, mkdir, rename, rm, stat } from "node:fs/promises";
import { dirname, join, normalize, sep } from "node:path";
import type { Readable } from "node:stream";

export interface MediaStorage {
  /** Moves (or copies) a finished local file into the store under `key`. */
  put(key: string, localPath: string): Promise<{ key: string; bytes: number }>;
  stat(key: string): Promise<{ bytes: number; modifiedAt: Date } | null>;
  read(key: string, range?: { start: number; end: number }): Readable;
  /** A local path for tools that need one (ffmpeg, zip). */
  localPath(key: string): string;
  /** A scratch directory for work in progress on `key`'s prefix. */
  scratchDir(prefix: string): Promise<string>;
  /** Deletes `prefix` and everything under it (a file or a whole folder such as `jobs/<jobId>`); absent is fine. */
  remove(prefix: string): Promise<void>;
}

export class LocalMediaStorage implements MediaStorage {
  constructor(readonly root: string) {}

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

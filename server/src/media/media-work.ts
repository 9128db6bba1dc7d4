// This instance's lane for heavy media children (clip probes and transcodes, picture decodes and downscales):
// MEDIA_CHILD_SLOTS at once (default 2, one per core of a small machine), each child under
// MEDIA_CHILD_MEMORY_MB of address space (default 768: a 4096 px clip transcodes in about 260 MB of RSS, a
// 50-megapixel photo decodes in about 450 MB). Every child waits its account's turn in the pool.
import { ChildPool } from "./child-pool.ts";
import { type LimitedRun, runLimited } from "./limited-child.ts";

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number of at least 1 (got "${raw}")`);
  return value;
}

let pool: ChildPool | null = null;

/** The process's pool (made on first use, from the environment). */
export function mediaPool(): ChildPool {
  pool ??= new ChildPool({ slots: positiveInt("MEDIA_CHILD_SLOTS", 2) });
  return pool;
}

/** The memory each media child may use, in bytes. */
export const mediaChildMemoryBytes = () => positiveInt("MEDIA_CHILD_MEMORY_MB", 768) * 1024 * 1024;

/** Who a child runs for: an account's id, or a shared lane's name for work no account asked for directly. */
export type MediaOwner = string;

/** Runs `command` for `owner` when the pool gives it a turn, under the media memory limit. */
export function runMediaChild(owner: MediaOwner, command: string, args: readonly string[], timeoutMs: number): Promise<LimitedRun> {
  return mediaPool().run(owner, () => runLimited(command, args, { memoryBytes: mediaChildMemoryBytes(), timeoutMs }));
}

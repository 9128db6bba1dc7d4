// One child process under a real memory bound: its address space is capped (RLIMIT_AS, set by the shell's
// `ulimit -v` just before it execs the program), so a hostile file makes the child fail with "Cannot allocate
// memory" instead of growing until the host's OOM killer picks a victim, perhaps the server. A V8 heap flag
// would not do: ffmpeg's and decoders' buffers live outside any heap. glibc's per-thread malloc arenas each
// reserve 64 MB of address space, so they are limited too, or a small limit would fail honest work.
import { spawn } from "node:child_process";

export interface LimitedRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  timedOut: boolean;
  /** The child ran out of its allowed memory (an allocation failed, or it died of it). */
  outOfMemory: boolean;
}

export interface LimitedOptions {
  /** Largest address space the child may map, in bytes. */
  memoryBytes: number;
  timeoutMs: number;
  /** Extra environment for the child (the rest is inherited). */
  env?: Record<string, string>;
}

const STDERR_KEEP = 64 * 1024;
const ALLOCATION_FAILED = /Cannot allocate memory|out of memory|std::bad_alloc|ENOMEM/i;

/** Runs `command` (no shell interpretation of its arguments) under `memoryBytes`, killed after `timeoutMs`. */
export function runLimited(command: string, args: readonly string[], options: LimitedOptions): Promise<LimitedRun> {
  const kib = Math.max(1, Math.floor(options.memoryBytes / 1024));
  // The script is fixed; the program and its arguments are passed as "$@", never parsed by the shell.
  const script = 'ulimit -v "$1" || exit 125; shift; exec "$@"';
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/sh", ["-c", script, "limited-child", String(kib), command, ...args], {
      stdio: ["ignore", "ignore", "pipe"],
      windowsHide: true,
      env: { ...process.env, MALLOC_ARENA_MAX: "2", ...options.env },
    });
    let stderr = "";
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, options.timeoutMs);
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_KEEP);
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 125) {
        reject(new Error(`could not set a memory limit of ${kib} KiB for ${command}`));
        return;
      }
      // A failed allocation may end in an error exit, or in a crash where the program did not check it.
      const crashed = !timedOut && (signal === "SIGSEGV" || signal === "SIGABRT" || signal === "SIGBUS");
      const outOfMemory = ALLOCATION_FAILED.test(stderr) || crashed;
      resolve({ code: outOfMemory && code === 0 ? 1 : code, signal, stderr, timedOut, outOfMemory });
    });
  });
}

// A watch on a child process's resident memory, read from /proc/<pid>/status (Linux) every few
// milliseconds, that calls `over` once the child holds more than `limitMb`. V8's --max-old-space-size
// bounds only the JavaScript heap, not the ArrayBuffers pdf.js inflates streams into (a 1 GB content
// stream took a child to 1.6 GB under a 512 MB heap limit). RLIMIT_AS cannot stand in: Node reserves
// address space far beyond what it uses, and under a 1 GB limit it traps at start-up; under 2 to 16 GB
// WebAssembly.instantiate fails (measured on Node 20). A cgroup needs privileges a service rarely has.
import { readFileSync } from "node:fs";

/** How often the child's memory is read: at the speed zlib inflates (about 1 GB/s), a sample misses ~25 MB. */
const SAMPLE_MS = 25;

export interface MemoryWatch {
  /** The largest resident size seen, in MB (0 where /proc cannot be read). */
  peakMb(): number;
  stop(): void;
}

/** The `VmRSS:   123 kB` line of /proc/<pid>/status, in MB; null once the process is gone (or off Linux). */
export function residentMb(pid: number): number | null {
  try {
    // A synchronous read of a /proc file takes microseconds: less than a promise's round trip.
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

export function watchMemory(pid: number, limitMb: number, over: (residentMb: number) => void): MemoryWatch {
  let peak = 0;
  const timer = setInterval(() => {
    const mb = residentMb(pid);
    if (mb === null) return;
    peak = Math.max(peak, mb);
    if (mb > limitMb) {
      clearInterval(timer);
      over(mb);
    }
  }, SAMPLE_MS);
  timer.unref();
  return { peakMb: () => Math.round(peak), stop: () => clearInterval(timer) };
}

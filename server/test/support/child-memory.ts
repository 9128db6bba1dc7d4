// The memory of this process's extraction children, read from outside them (/proc, Linux): what the
// service's own watch on a child says is not proof that the watch works.
import { readdirSync, readFileSync } from "node:fs";

function read(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

/** The pids of this process's children whose command line names `entry`. */
function childrenRunning(entry: string): number[] {
  const pids = readdirSync(`/proc/${process.pid}/task`).flatMap((task) =>
    read(`/proc/${process.pid}/task/${task}/children`).split(" ").filter(Boolean).map(Number),
  );
  return pids.filter((pid) => read(`/proc/${pid}/cmdline`).includes(entry));
}

/**
 * Samples every few milliseconds the peak resident size (VmHWM) of each extraction child alive, until
 * `stop()`, which answers the largest seen in MB and how many children were seen.
 */
export function sampleExtractionChildren(): { stop(): { peakMb: number; children: number } } {
  const seen = new Set<number>();
  let peakKb = 0;
  const timer = setInterval(() => {
    for (const pid of childrenRunning("extraction-child")) {
      seen.add(pid);
      const kb = Number(/^VmHWM:\s+(\d+)/m.exec(read(`/proc/${pid}/status`))?.[1] ?? 0);
      peakKb = Math.max(peakKb, kb);
    }
  }, 10);
  return {
    stop() {
      clearInterval(timer);
      return { peakMb: Math.round(peakKb / 1024), children: seen.size };
    },
  };
}

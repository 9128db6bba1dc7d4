// Where a load's CPU went, read from Linux's /proc: the service's main thread (where every request is
// served), the rest of this process (the load's client thread, GC helpers, libuv's pool), a local
// PostgreSQL server's processes, and the machine as a whole. It turns "the target is not met" into a
// ceiling: with every core busy, throughput can grow only as far as the CPU per request shrinks.
import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";

/** Linux's clock ticks per second for /proc's CPU times (USER_HZ: 100 on every mainstream kernel). */
const TICKS_PER_SECOND = 100;

interface Snapshot {
  mainThread: number;
  /** The main thread's time in the kernel (system calls: socket reads and writes, epoll). */
  mainThreadSystem: number;
  process: number;
  postgres: number;
  machineBusy: number;
  machineTotal: number;
}

/** utime and stime, in ticks, of a /proc/…/stat line (fields 14 and 15; the name in parentheses may hold spaces). */
function userAndSystemTicks(statPath: string): { user: number; system: number } {
  try {
    const text = readFileSync(statPath, "utf8");
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { user: Number(fields[11]), system: Number(fields[12]) };
  } catch {
    return { user: 0, system: 0 }; // a process that ended between listing and reading
  }
}

function cpuTicks(statPath: string): number {
  const { user, system } = userAndSystemTicks(statPath);
  return user + system;
}

/** Every process named `postgres` on this machine: the server, its backends and its helpers. */
function postgresTicks(): number {
  let sum = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let name: string;
    try {
      name = readFileSync(`/proc/${entry}/comm`, "utf8").trim();
    } catch {
      continue;
    }
    if (name === "postgres") sum += cpuTicks(`/proc/${entry}/stat`);
  }
  return sum;
}

function machineTicks(): { busy: number; total: number } {
  const [line] = readFileSync("/proc/stat", "utf8").split("\n");
  const [, ...values] = line!.trim().split(/\s+/);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = values.map(Number) as number[];
  const busy = user! + nice! + system! + irq! + softirq! + steal!;
  return { busy, total: busy + idle! + iowait! };
}

function snapshot(): Snapshot {
  const machine = machineTicks();
  const main = userAndSystemTicks(`/proc/self/task/${process.pid}/stat`);
  return {
    mainThread: main.user + main.system,
    mainThreadSystem: main.system,
    process: cpuTicks("/proc/self/stat"),
    postgres: postgresTicks(),
    machineBusy: machine.busy,
    machineTotal: machine.total,
  };
}

export interface CpuShare {
  /** CPU milliseconds per unit of work (a request), by where they were spent. */
  perUnitMs: { mainThread: number; mainThreadSystem: number; restOfProcess: number; postgres: number; total: number };
  /** How busy the machine's cores were, 0–1, over the measured interval. */
  machineBusy: number;
  /** What the machine could do with every core busy at this CPU per unit: cores × 1000 / total ms. */
  ceilingPerSecond: number;
  /** The main thread's ceiling on its own: 1000 / its ms per unit. */
  mainThreadCeilingPerSecond: number;
}

/** Starts counting; `stop(units)` says where the CPU went per unit of work since. Linux only. */
export function startCpuAccounting(): { stop(units: number): CpuShare | null } {
  if (process.platform !== "linux") return { stop: () => null };
  const before = snapshot();
  return {
    stop(units: number) {
      const after = snapshot();
      const ms = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND / units;
      const mainThread = ms(after.mainThread - before.mainThread);
      const processMs = ms(after.process - before.process);
      const postgres = ms(after.postgres - before.postgres);
      const total = processMs + postgres;
      const cores = availableParallelism();
      return {
        perUnitMs: {
          mainThread,
          mainThreadSystem: ms(after.mainThreadSystem - before.mainThreadSystem),
          restOfProcess: processMs - mainThread,
          postgres,
          total,
        },
        machineBusy: (after.machineBusy - before.machineBusy) / Math.max(1, after.machineTotal - before.machineTotal),
        ceilingPerSecond: (cores * 1000) / total,
        mainThreadCeilingPerSecond: 1000 / mainThread,
      };
    },
  };
}

/** One line for the bench's report. */
export function describeCpu(share: CpuShare | null, unit: string, units: string): string {
  if (!share) return `CPU per ${unit}: not measured (needs Linux's /proc)`;
  const { mainThread, mainThreadSystem, restOfProcess, postgres, total } = share.perUnitMs;
  return (
    `CPU per ${unit}: ${total.toFixed(2)} ms (service's main thread ${mainThread.toFixed(2)}, of it ${mainThreadSystem.toFixed(2)} in the kernel; rest of the process with the load's client ${restOfProcess.toFixed(2)}, PostgreSQL ${postgres.toFixed(2)}); ` +
    `machine ${(share.machineBusy * 100).toFixed(0)} % busy on ${availableParallelism()} cores, so at most ${share.ceilingPerSecond.toFixed(0)} ${units}/s here at this CPU per ${unit} ` +
    `(the main thread alone: ${share.mainThreadCeilingPerSecond.toFixed(0)}/s)`
  );
}

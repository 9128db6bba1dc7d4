// `pnpm bench` writes what it measured into docs/benchmarks.md, and nothing else writes there: one section per
// part of the bench (`## pnpm bench start`, …) with when and on what it ran (date, load average, cores, Node), so
// every figure can be traced to a run. The README and the other docs link to the file instead of copying its
// figures. Running one part replaces that part's section and keeps the others.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { root } from "../../scripts/built.mjs";

export const BENCHMARKS_FILE = join(root, "docs", "benchmarks.md");

const HEADER = `# Benchmarks

Written by \`pnpm bench\` (or \`pnpm bench <part>\`), never by hand: each section is the last run of that part on the
machine it names. What the figures mean, the targets and earlier runs are in [performance.md](performance.md).
`;

/** The run's circumstances: the load average says how shared the machine was. */
export function machineLine(loadAtStart: number[]): string {
  const cores = cpus();
  const load = (values: number[]) => values.map((v) => v.toFixed(2)).join(" / ");
  return (
    `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC; ${cores.length} × ${cores[0]?.model.trim() ?? "CPU"}; ` +
    `node ${process.version}; load average (1 / 5 / 15 min) ${load(loadAtStart)} at the start, ${load(loadavg())} at the end`
  );
}

/**
 * Replaces (or adds) each measured part's section in docs/benchmarks.md; keeps the sections of parts not run.
 * The header above the sections is always this writer's own.
 */
export function writeBenchmarks(parts: Map<string, string[]>, machine: string, file = BENCHMARKS_FILE): void {
  const text = existsSync(file) ? readFileSync(file, "utf8") : HEADER;
  const [, ...rest] = text.split(/^(?=## )/m);
  const sections = new Map<string, string>();
  for (const section of rest) sections.set(section.split("\n", 1)[0]!.trim(), section.trimEnd());
  for (const [part, lines] of parts) {
    if (lines.length === 0) continue;
    const title = `## pnpm bench ${part}`;
    sections.set(title, [title, "", machine, "", ...lines.map((line) => `- ${line}`)].join("\n"));
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${HEADER.trimEnd()}\n\n${[...sections.values()].join("\n\n")}\n`);
}

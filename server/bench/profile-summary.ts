// `node bench/profile-summary.ts <file.cpuprofile> [top]`: where a V8 CPU profile's time went, by package or
// source file and by function (self time), idle and GC apart. For docs/performance.md's transport profiles.
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg = "25"] = process.argv.slice(2);
if (!file) throw new Error("usage: profile-summary.ts <file.cpuprofile> [top]");
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map<number, number>();
for (const [i, id] of profile.samples.entries()) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));

/** A file's place: its package (`graphql`, `@trpc/server`), else its path inside the repository. */
function placeOf(url: string): string {
  if (!url) return "(native / V8)";
  const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(url);
  if (pkg) return `${pkg[1]}`;
  if (url.startsWith("node:")) return "node (core)";
  const repo = /\/(server|rest-adapter|schema)\/(.*)$/.exec(url);
  return repo ? `${repo[1]}/${repo[2]}` : url;
}

const files = new Map<string, number>();
const functions = new Map<string, number>();
let total = 0;
let idle = 0;
for (const [id, us] of self) {
  const node = byId.get(id)!;
  const { functionName, url, lineNumber } = node.callFrame;
  total += us;
  if (functionName === "(idle)") {
    idle += us;
    continue;
  }
  const place = placeOf(url);
  files.set(place, (files.get(place) ?? 0) + us);
  const name = `${functionName || "(anonymous)"} ${place}${url && !place.startsWith("(") ? `:${lineNumber + 1}` : ""}`;
  functions.set(name, (functions.get(name) ?? 0) + us);
}
const busy = total - idle;
const top = Number(topArg);
const pct = (us: number) => `${((us / busy) * 100).toFixed(1)} %`;
console.log(`busy ${(busy / 1e6).toFixed(2)} s of ${(total / 1e6).toFixed(2)} s sampled`);
console.log("\nby package or file (self time, share of busy):");
for (const [name, us] of [...files].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(us).padStart(7)}  ${name}`);
console.log("\nby function (self time):");
for (const [name, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(us).padStart(7)}  ${name}`);

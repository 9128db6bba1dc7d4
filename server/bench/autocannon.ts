// autocannon's CLI: the load runs in its own process, so it does not share the server's event loop (or its
// CPU profile). `fresh: true` sends `[<id>]` in the body replaced by a new number on every request, so no two
// requests carry the same document (autocannon's own --idReplacement sends no request at all here: the
// replacement is made by a `setupRequest` of its API, in a child process all the same).
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const autocannonBin = join(dirname(fileURLToPath(import.meta.url)), "../node_modules/.bin/autocannon");

export interface LoadTarget {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Replace `[<id>]` in the body by a fresh random id per request. */
  fresh?: boolean;
}

export interface LoadRate {
  /** autocannon's average of its per-second samples. */
  perSecond: number;
  /** Requests answered in all. */
  total: number;
}

type Report = { requests: { average: number; total: number }; non2xx: number; errors: number };

function rateOf(target: LoadTarget, out: string): LoadRate {
  const report = JSON.parse(out) as Report;
  if (report.non2xx || report.errors) throw new Error(`${target.url}: ${report.non2xx} non-2xx, ${report.errors} errors`);
  return { perSecond: report.requests.average, total: report.requests.total };
}

/** The load's rate with 16 keep-alive connections for `seconds`; any non-2xx answer fails it. */
export function autocannon(target: LoadTarget, seconds: number, connections = 16): Promise<LoadRate> {
  return new Promise<LoadRate>((resolve, reject) => {
    if (target.fresh) return fresh(target, seconds, connections).then(resolve, reject);
    const args = ["-c", String(connections), "-d", String(seconds), "-j", "-m", target.method ?? "GET"];
    for (const [name, value] of Object.entries(target.headers ?? {})) args.push("-H", `${name}=${value}`);
    if (target.body) args.push("-b", target.body);
    const child = spawn(autocannonBin, [...args, target.url]);
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.on("error", reject);
    child.on("close", () => {
      try {
        resolve(rateOf(target, out));
      } catch (error) {
        reject(error);
      }
    });
  });
}

const FRESH_SOURCE = `
const autocannon = require(process.env.AUTOCANNON_PATH);
const target = JSON.parse(process.env.LOAD_TARGET);
let n = 0;
autocannon({
  url: target.url, connections: Number(process.env.LOAD_CONNECTIONS), duration: Number(process.env.LOAD_SECONDS),
  method: target.method ?? "GET", headers: target.headers ?? {},
  requests: [{ setupRequest: (request) => ({ ...request, body: target.body.replace("[<id>]", String(n++) + "_" + process.pid) }) }],
}, (error, result) => {
  if (error) { console.error(error); process.exit(1); }
  process.stdout.write(JSON.stringify(result));
});
`;

function fresh(target: LoadTarget, seconds: number, connections: number): Promise<LoadRate> {
  return new Promise<LoadRate>((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", FRESH_SOURCE], {
      env: {
        ...process.env,
        AUTOCANNON_PATH: createRequire(import.meta.url).resolve("autocannon"),
        LOAD_TARGET: JSON.stringify(target),
        LOAD_SECONDS: String(seconds),
        LOAD_CONNECTIONS: String(connections),
        NODE_OPTIONS: "",
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.on("error", reject);
    child.on("close", () => {
      try {
        resolve(rateOf(target, out));
      } catch (error) {
        reject(error);
      }
    });
  });
}

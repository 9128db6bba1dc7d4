// `node --import tsx bench/profile-transports.ts <rest|trpc|graphql|graphql-fresh|partner|bare-sql> [seconds] [pglite]`:
// one transport's signed-in profile read under autocannon (16 connections, its own process), in a service
// started in this process; V8's CPU profile (what `--cpu-prof` writes) of the load's seconds alone is written to
// PROFILE_DIR: the server's side only, as the load runs in autocannon's process. Summarise the profile with bench/profile-summary.ts.
// Used to find where a transport's time goes (docs/performance.md); not part of `pnpm bench`.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { destination } from "pino";
import { loadConfig, type DatabaseTarget } from "../src/config/env.ts";
import { listen } from "../src/http/app.ts";
import { createLogger } from "../src/logging/logger.ts";
import { createServices } from "../src/services.ts";
import { profileTargets } from "./transport-targets.ts";
import { autocannon } from "./autocannon.ts";

const [variant = "graphql", secondsArg = "8", dbArg = "postgres"] = process.argv.slice(2);
const base = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
let database: DatabaseTarget = { kind: "pglite-memory" };
let dbName: string | null = null;
if (dbArg === "postgres") {
  dbName = `adgen_profile_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${dbName}`;
  database = { kind: "postgres", url: url.toString() };
}
const dataDir = mkdtempSync(join(tmpdir(), "adgen-profile-"));
const config = loadConfig(
  {
    DATA_DIR: dataDir,
    SESSION_SECRET: randomBytes(32).toString("hex"),
    WORKERS: "0",
    RATE_LIMIT_API_PER_MINUTE: "1000000",
    ADMIN_EMAIL: "bench@example.com",
    ADMIN_PASSWORD: "bench-password-1",
  },
  { database },
);
const logger = createLogger({ level: "info", destination: destination({ dest: "/dev/null", sync: false }) });
const services = await createServices(config, { logger });
const server = await listen(services, 0, "127.0.0.1");
try {
  const targets = await profileTargets(services, server.url);
  const target = targets[variant];
  if (!target) throw new Error(`unknown variant ${variant}: ${Object.keys(targets).join(", ")}`);
  if (process.env.SHOW_ONE) {
    const t0 = performance.now();
    const res = await fetch(target.url, {
      method: target.method ?? "GET",
      headers: target.headers,
      body: target.body?.replace("[<id>]", "x1"),
    });
    console.log(res.status, (await res.text()).slice(0, 600), `${(performance.now() - t0).toFixed(0)} ms`);
  }
  await autocannon(target, 1);
  // The profile covers the measured load alone (start-up and seeding excluded): V8's sampling profiler, as
  // `--cpu-prof` runs it, started and stopped through the inspector.
  const session = new Session();
  session.connect();
  const post = <T>(method: string, params?: object) =>
    new Promise<T>((resolve, reject) =>
      session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result as T))),
    );
  await post("Profiler.enable");
  await post("Profiler.setSamplingInterval", { interval: 500 });
  await post("Profiler.start");
  let statements = 0;
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    statements += 1;
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  const cpuBefore = process.cpuUsage();
  const { perSecond: rate, total: answered } = await autocannon(target, Number(secondsArg));
  pg.Client.prototype.query = query;
  const cpu = process.cpuUsage(cpuBefore);
  console.log(
    `server CPU per request: ${((cpu.user + cpu.system) / 1000 / answered).toFixed(3)} ms (${(cpu.system / 1000 / answered).toFixed(3)} ms of it in the kernel)`,
  );
  if (dbArg === "postgres") console.log(`statements per request: ${(statements / answered).toFixed(2)}`);
  const { profile } = await post<{ profile: object }>("Profiler.stop");
  const out = join(process.env.PROFILE_DIR ?? tmpdir(), `${variant}-${dbArg}.cpuprofile`);
  writeFileSync(out, JSON.stringify(profile));
  console.log(`profile: ${out}`);
  console.log(`${variant} on ${dbArg}: ${rate.toFixed(0)}/s`);
  await targets.close();
} finally {
  await server.close();
  await services.close();
  rmSync(dataDir, { recursive: true, force: true });
  if (dbName) {
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }
}

// `pnpm bench`: figures for docs/benchmarks.md, measured in one run on this machine. Not a test: it asserts
// nothing, it measures. Each figure is also given as a ratio so machines can be compared.
//   1. launches per second (REST, 16 keep-alive connections from a client thread: bench/http-load.ts) on embedded PGlite and on PostgreSQL,
//      and where each launch's CPU went (bench/cpu-accounting.ts): the ceiling this machine's cores set
//   2. concurrent subscribers on one job in one process (REST SSE, and tRPC as the SPA reads it), p50/p99 delivery latency
//      and the CPU each update cost the server and the readers
//   3. render time of a 15 s 9:16 ad against its length, and four formats against one
//   4. one authenticated read (the profile) through REST, tRPC and GraphQL (also with a fresh document), and a
//      partner's bulk GraphQL read, each against a bare Hono route running the statements it needs, as ratios
//      of rate and of CPU per request measured in one run (bench/transport-targets.ts)
//   5. fairness: one account holds 500 queued jobs; how long another account's new job waits to start
//   6. memory while a 50 MB knowledge-base document streams in (bench/knowledge-upload.ts)
//   7. start to healthy and idle memory of the service process, PGlite and PostgreSQL (bench/startup-memory.ts)
//   9. `pnpm bench agents`: a free storyboard preview's time, and an MCP tool call against REST for the profile
//      read (bench/agent-interface.ts)
//   8. `pnpm bench start`: from a fresh clone, install (with its builds), first start and restart to the
//      address line, and a quiet SIGTERM (bench/fresh-clone-start.ts)
import { randomBytes } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { type DatabaseTarget, loadConfig } from "../src/config/env.ts";
import { listen } from "../src/http/app.ts";
import { execFileSync } from "node:child_process";
import { destination } from "pino";
import { createLogger } from "../src/logging/logger.ts";
import { createStudioRenderer, locateFfmpeg } from "../src/modules/render/index.ts";
import { renderWorkers } from "./render-workers.ts";
import { renderFarm } from "./render-farm.ts";
import { createEspeakSynthesizer, narrate } from "../src/modules/voice/index.ts";
import type { Storyboard } from "../src/modules/render/types.ts";
import { createServices } from "../src/services.ts";
import { BENCHMARKS_FILE, machineLine, writeBenchmarks } from "./benchmarks-doc.ts";
import { freshCloneStart } from "./fresh-clone-start.ts";
import { knowledgeUploadMemory } from "./knowledge-upload.ts";
import { type CpuShare, describeCpu, startCpuAccounting } from "./cpu-accounting.ts";
import { runLoad } from "./http-load.ts";
import { autocannon } from "./autocannon.ts";
import { PARTNER_PROJECTS, profileTargets } from "./transport-targets.ts";
import { startReaders } from "./sse-readers.ts";
import { startupAndMemory } from "./startup-memory.ts";
import { agentInterface } from "./agent-interface.ts";

const ADMIN = { ADMIN_EMAIL: "bench@example.com", ADMIN_PASSWORD: "bench-password-1" };
const results: string[] = [];
/** The lines of each part of the bench, for docs/benchmarks.md. */
const parts = new Map<string, string[]>();
let part = "";
const log = (line: string) => {
  console.log(line);
  results.push(line);
  if (!parts.has(part)) parts.set(part, []);
  parts.get(part)!.push(line);
};

async function startApp(database: DatabaseTarget, env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), "adgen-bench-"));
  const config = loadConfig(
    {
      DATA_DIR: dataDir,
      SESSION_SECRET: randomBytes(32).toString("hex"),
      WORKERS: "0",
      RATE_LIMIT_API_PER_MINUTE: "1000000",
      RATE_LIMIT_AUTH_PER_HOUR: "100000",
      RATE_LIMIT_STREAM_PER_HOUR: "100000",
      ...ADMIN,
      ...env,
    },
    { database },
  );
  // Logs at the production default (info: a line per request, written asynchronously as on stdout) cost
  // what they cost, but go to /dev/null so the bench's own output stays readable.
  const logger = createLogger({ level: "info", destination: destination({ dest: "/dev/null", sync: false }) });
  const services = await createServices(config, { logger });
  const server = await listen(services, 0, "127.0.0.1");
  return {
    services,
    url: server.url,
    async close() {
      await server.close();
      await services.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function login(url: string, email: string, password: string, signup = false): Promise<string> {
  const res = await fetch(`${url}/api/auth/${signup ? "signup" : "login"}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`${signup ? "signup" : "login"} answered ${res.status}`);
  return res.headers
    .getSetCookie()
    .find((c) => c.startsWith("session="))!
    .split(";")[0]!;
}

/** Launches per second: 50 accounts, 16 concurrent clients, no workers (the write path alone). */
async function launchesPerSecond(label: string, database: DatabaseTarget): Promise<number> {
  const app = await startApp(database);
  try {
    const accounts = 50;
    const perAccount = 40;
    const admin = await login(app.url, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD);
    const cookies: string[] = [];
    for (let i = 0; i < accounts; i++) {
      const cookie = await login(app.url, `launcher-${i}-${Date.now()}@example.com`, "password123", true);
      const me = await (await fetch(`${app.url}/api/user/profile`, { headers: { cookie } })).json();
      await fetch(`${app.url}/api/admin/users/${me.data.id}/credits`, {
        method: "POST",
        headers: { cookie: admin, "content-type": "application/json" },
        body: JSON.stringify({ amount: perAccount * 10, reason: "bench" }),
      });
      cookies.push(cookie);
    }
    const body = JSON.stringify({ type: "cinematic", concept: "bench" });
    const warmUp = await runLoad({
      url: app.url,
      path: "/api/workflow",
      body,
      cookies: cookies.slice(0, 10),
      connections: 2,
      requests: 10,
    });
    const total = accounts * perAccount - 10;
    // The clients run in a thread of their own, on raw keep-alive sockets (http-load.ts).
    const cpu = startCpuAccounting();
    const load = await runLoad({ url: app.url, path: "/api/workflow", body, cookies, connections: 16, requests: total });
    const cpuShare = cpu.stop(load.statuses["200"] ?? total);
    const ok = load.statuses["200"] ?? 0;
    if (ok !== total || (warmUp.statuses["200"] ?? 0) !== 10)
      throw new Error(`launch bench: answers ${JSON.stringify(load.statuses)} (warm-up ${JSON.stringify(warmUp.statuses)})`);
    const seconds = load.seconds;
    const rate = ok / seconds;
    const [drift] = await app.services.db.sql.query<{ off: number }>(
      `SELECT count(*)::int AS off FROM users u
       WHERE u.credits_balance <> (SELECT COALESCE(sum(delta), 0) FROM credit_ledger l WHERE l.user_id = u.id)`,
    );
    log(
      `launches/s on ${label}: ${rate.toFixed(1)} (${ok} launches in ${seconds.toFixed(2)} s, ${accounts} accounts, 16 keep-alive connections from a client thread, no workers; charge, ledger row and job in one statement, then admission); accounts whose balance differs from their ledger afterwards: ${drift?.off ?? "?"}`,
    );
    log(`launches on ${label}: ${describeCpu(cpuShare, "launch", "launches")}`);
    return rate;
  } finally {
    await app.close();
  }
}

const STREAM_LABELS = { rest: "SSE (REST)", trpc: "tRPC subscription (SSE)", graphql: "GraphQL subscription (graphql-ws)" };

async function sseFanOut(subscribers: number, transport: "rest" | "trpc" | "graphql") {
  const app = await startApp({ kind: "pglite-memory" });
  try {
    const user = await login(app.url, `sse-${Date.now()}@example.com`, "password123", true);
    const launched = await (
      await fetch(`${app.url}/api/workflow`, {
        method: "POST",
        headers: { cookie: user, "content-type": "application/json" },
        body: JSON.stringify({ type: "cinematic", concept: "fan-out" }),
      })
    ).json();
    const jobId = launched.jobId as string;
    const rounds = 20;
    const readers = startReaders({ url: app.url, transport, cookie: user, jobId, subscribers, rounds });
    const { connected, failed } = await readers.connected;
    // Every stream has had its first (current state) event by now or very soon: let them settle.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const sentAt = new Map<number, number>();
    const publishMs: number[] = [];
    const cpu = startCpuAccounting();
    let cpuShare: CpuShare | null = null;
    for (let round = 1; round <= rounds; round++) {
      // Counted up to the last update: the readers hang up once they have it, and 10,000 closing
      // sockets are not what an update costs.
      if (round === rounds) cpuShare = cpu.stop(rounds - 1);
      const at = performance.timeOrigin + performance.now();
      sentAt.set(round, at);
      await fetch(`${app.url}/api/workflow/stream`, {
        method: "POST",
        headers: { cookie: user, "content-type": "application/json" },
        body: JSON.stringify({ jobId, step: "bench", progress: round, status: "processing" }),
      });
      publishMs.push(performance.timeOrigin + performance.now() - at);
      await new Promise((r) => setTimeout(r, 100));
    }
    const result = await Promise.race([readers.done, new Promise<null>((r) => setTimeout(() => r(null), 60_000))]);
    await readers.stop();
    const latencies = (result?.arrivals ?? []).map(([progress, at]) => at - (sentAt.get(progress) ?? at)).sort((x, y) => x - y);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? Number.NaN;
    const expected = connected * rounds;
    const updates = publishMs.sort((x, y) => x - y)[Math.floor(publishMs.length / 2)] ?? Number.NaN;
    log(
      `${STREAM_LABELS[transport]}: ${subscribers} subscribers on one job (readers in their own thread; ${connected} connected, ${failed} refused), 20 updates 100 ms apart: ${latencies.length}/${expected} events delivered; latency p50 ${pct(50).toFixed(1)} ms, p99 ${pct(99).toFixed(1)} ms (p99 = ${(pct(99) / 100).toFixed(2)}× the interval); the update request took ${updates.toFixed(1)} ms (median)`,
    );
    if (cpuShare) {
      const { mainThread, mainThreadSystem, restOfProcess } = cpuShare.perUnitMs;
      log(
        `${STREAM_LABELS[transport]}, ${subscribers} subscribers: CPU per update ${mainThread.toFixed(0)} ms on the service's main thread (${mainThreadSystem.toFixed(0)} ms of it in the kernel, writing to the sockets), ${restOfProcess.toFixed(0)} ms in the readers' thread and the rest of the process; machine ${(cpuShare.machineBusy * 100).toFixed(0)} % busy on ${availableParallelism()} cores`,
      );
    }
  } finally {
    await app.close();
  }
}

/**
 * The bench ad, as the studio makes it today: a product picture under three of the four scenes with the
 * camera panning or pushing in, type rising into place, a logo on the closing scene and an energetic bed.
 */
function storyboard(seconds: number, picture: string, logo: string): Storyboard {
  const colors = ["#1d3557", "#457b9d", "#1d3557", "#e63946"];
  const motions = ["pan-left", "push-in", "pan-right", "static"] as const;
  const per = seconds / 4;
  return {
    title: "Bench ad",
    mood: "energetic",
    brand: { name: "Bench", primary: "#1d3557", secondary: "#457b9d", accent: "#e63946", text: "#ffffff", logoPath: logo },
    scenes: colors.map((background, i) => ({
      id: `s${i}`,
      durationSec: per,
      headline: ["Cold brew, ready in a minute", "Made for busy mornings", "Taste the difference", "Order today"][i]!,
      body: i < 3 ? "Smooth, bold and never bitter." : undefined,
      cta: i === 3 ? "Shop now" : undefined,
      background,
      accent: i === 3 ? "#1d3557" : "#e63946",
      transition: "fade" as const,
      ...(i < 3 ? { imagePath: picture, motion: motions[i] } : {}),
      textMotion: "rise" as const,
    })),
  };
}

async function renders() {
  const renderer = createStudioRenderer();
  const dir = mkdtempSync(join(tmpdir(), "adgen-bench-render-"));
  try {
    const ffmpeg = locateFfmpeg();
    const picture = join(dir, "product.jpg");
    const logo = join(dir, "logo.png");
    execFileSync(ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=1600x1200", "-frames:v", "1", "-y", picture]);
    execFileSync(ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "color=c=0x2255aa:s=400x160", "-frames:v", "1", "-y", logo]);
    const board = storyboard(15, picture, logo);
    await renderer.render({ storyboard: storyboard(2, picture, logo), format: "9:16", outputDir: dir, fileStem: "warmup" });
    let t = performance.now();
    await renderer.render({ storyboard: board, format: "9:16", outputDir: dir, fileStem: "one" });
    const one = (performance.now() - t) / 1000;
    log(
      `render: a 15 s 9:16 standard ad with pictures, motion and music (720×1280 at 30 fps, H.264/AAC, −14 LUFS) took ${one.toFixed(1)} s = ${(one / 15).toFixed(2)}× its length`,
    );
    t = performance.now();
    await renderer.render({ storyboard: board, format: "9:16", outputDir: dir, fileStem: "premium", quality: "premium" });
    const premium = (performance.now() - t) / 1000;
    log(`render: the same ad at premium (1080×1920 at 60 fps) took ${premium.toFixed(1)} s = ${(premium / 15).toFixed(2)}× its length`);
    t = performance.now();
    for (const format of ["9:16", "1:1", "16:9", "4:5"] as const) {
      await renderer.render({ storyboard: board, format, outputDir: dir, fileStem: `all-${format.replace(":", "x")}` });
    }
    const four = (performance.now() - t) / 1000;
    log(
      `render: the same ad in all four formats took ${four.toFixed(1)} s = ${(four / one).toFixed(2)}× one format (${(four / 15).toFixed(2)}× its length)`,
    );
    // Render by scene, on a 15 s ad of five 3 s scenes: the ad as one graph (no segments), then through the
    // segment cache, then after an edit of one scene (only that scene's segment is encoded), then a hook
    // variant in every format.
    const more = { ...board.scenes[1]!, id: "s4", headline: "Fresh every single morning", motion: "pan-up" as const };
    const five = { ...board, scenes: [...board.scenes.slice(0, 3), more, board.scenes[3]!].map((scene) => ({ ...scene, durationSec: 3 })) };
    // Each figure is the median of three runs: one encode of a 3 s scene is short enough for the machine's
    // other work to move a single run by a third.
    const seconds = async (work: () => Promise<unknown>) => {
      const started = performance.now();
      await work();
      return (performance.now() - started) / 1000;
    };
    const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
    const wholeGraph = createStudioRenderer({ wholeGraph: true });
    const wholes: number[] = [];
    for (let k = 0; k < 3; k++) {
      wholes.push(await seconds(() => wholeGraph.render({ storyboard: five, format: "9:16", outputDir: dir, fileStem: `whole-${k}` })));
    }
    const whole = median(wholes);
    const counts = { hits: 0, misses: 0 };
    /** A renderer with a segment cache of its own (a folder), counting lookups in `counts`. */
    const withCache = (cacheDir: string) => {
      mkdirSync(cacheDir);
      return createStudioRenderer({
        segmentCache: {
          async get(key) {
            const file = join(cacheDir, key);
            const found = existsSync(file);
            if (!key.endsWith(".thumb")) counts[found ? "hits" : "misses"]++;
            return found ? file : null;
          },
          async put(key, file) {
            copyFileSync(file, join(cacheDir, key));
          },
        },
      });
    };
    const colds: number[] = [];
    const edits: number[] = [];
    const renderers = [0, 1, 2].map((k) => withCache(join(dir, `segments-${k}`)));
    for (const [k, cached] of renderers.entries()) {
      colds.push(await seconds(() => cached.render({ storyboard: five, format: "9:16", outputDir: dir, fileStem: `cold-${k}` })));
      // A review edit of the third scene's line: only that scene's segment is encoded again.
      const edited = {
        ...five,
        scenes: five.scenes.map((scene, i) =>
          i === 2 ? { ...scene, headline: ["Made for early shifts", "Made for late nights", "Made for long drives"][k]! } : scene,
        ),
      };
      edits.push(await seconds(() => cached.render({ storyboard: edited, format: "9:16", outputDir: dir, fileStem: `edited-${k}` })));
    }
    const cold = median(colds);
    const cached = renderers[2]!;
    log(
      `render by scene: the 15 s ad as five segments took ${(cold / whole).toFixed(2)}× the same ad as one graph (${cold.toFixed(1)} s against ${whole.toFixed(1)} s, medians of three)`,
    );
    log(
      `render by scene: after a review edit of one scene, the re-render took ${(median(edits) / cold).toFixed(2)}× the first render (${median(edits).toFixed(1)} s, median of three)`,
    );
    for (const format of ["1:1", "16:9", "4:5"] as const) {
      await cached.render({ storyboard: five, format, outputDir: dir, fileStem: `set-${format.replace(":", "x")}` });
    }
    const before = { ...counts };
    const variant = {
      ...five,
      scenes: five.scenes.map((scene, i) => (i === 0 ? { ...scene, headline: "Cold brew in sixty seconds" } : scene)),
    };
    for (const format of ["9:16", "1:1", "16:9", "4:5"] as const) {
      await cached.render({ storyboard: variant, format, outputDir: dir, fileStem: `variant-${format.replace(":", "x")}` });
    }
    const hits = counts.hits - before.hits;
    const looked = hits + counts.misses - before.misses;
    log(
      `render by scene: a hook variant in all four formats reused ${hits} of ${looked} segments (${Math.round((hits / looked) * 100)} % cache hits)`,
    );
    // A narrated ad: the offline voice speaks the copy, the scenes are retimed to it, captions burned in.
    t = performance.now();
    const narration = await narrate(board, createEspeakSynthesizer(), { style: "presenter", maxAdSeconds: 15, workDir: dir });
    const spoken = (performance.now() - t) / 1000;
    t = performance.now();
    const voiced = await renderer.render({
      storyboard: narration.storyboard,
      format: "9:16",
      outputDir: dir,
      fileStem: "voiced",
      ...(narration.wavPath ? { narration: { wavPath: narration.wavPath, cues: narration.cues } } : {}),
      persona: { kind: "presenter", name: "Bench" },
    });
    const rendered = (performance.now() - t) / 1000;
    // The same narrated ad by segments and as one graph (its camera, presenter and captions run across the
    // cuts there), three times each.
    const narrated = {
      storyboard: narration.storyboard,
      format: "9:16" as const,
      outputDir: dir,
      ...(narration.wavPath ? { narration: { wavPath: narration.wavPath, cues: narration.cues } } : {}),
      persona: { kind: "presenter" as const, name: "Bench" },
    };
    const bySegments = [rendered];
    const asOneGraph: number[] = [];
    for (let k = 0; k < 3; k++) {
      if (k > 0) bySegments.push(await seconds(() => renderer.render({ ...narrated, fileStem: `voiced-${k}` })));
      asOneGraph.push(await seconds(() => wholeGraph.render({ ...narrated, fileStem: `voiced-whole-${k}` })));
    }
    log(
      `render by scene: the narrated ad as ${narration.storyboard.scenes.length} segments took ${(median(bySegments) / median(asOneGraph)).toFixed(2)}× the same ad as one graph (${median(bySegments).toFixed(1)} s against ${median(asOneGraph).toFixed(1)} s, medians of three)`,
    );
    log(
      `render: a narrated ${voiced.durationSec.toFixed(1)} s 9:16 ad took ${(spoken + rendered).toFixed(1)} s (voice ${spoken.toFixed(1)} s + render ${rendered.toFixed(1)} s) = ${((spoken + rendered) / voiced.durationSec).toFixed(2)}× its length`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The signed-in profile read through REST, tRPC and GraphQL (the same document, and a fresh one every
 * request), and a partner's bulk read, each against the bare statements it needs (transport-targets.ts).
 * Interleaved rounds, so drift on the machine hits every variant alike; two figures per variant: requests
 * per second, and the service process's CPU per request (the load runs in autocannon's own process), which
 * a shared machine disturbs far less than the rate.
 */
async function transports(label: string, database: DatabaseTarget) {
  const app = await startApp(database);
  try {
    const targets = await profileTargets(app.services, app.url);
    const names = ["bare", "bareSql", "rest", "trpc", "graphql", "graphqlFresh", "partnerSql", "partner"] as const;
    const rates: Record<string, number[]> = {};
    const cpus: Record<string, number[]> = {};
    for (const name of names) await autocannon(targets[name]!, 1); // warm-up
    for (let round = 0; round < 3; round++) {
      for (const name of names) {
        const before = process.cpuUsage();
        const { perSecond, total } = await autocannon(targets[name]!, 3);
        const used = process.cpuUsage(before);
        rates[name] = [...(rates[name] ?? []), perSecond];
        cpus[name] = [...(cpus[name] ?? []), (used.user + used.system) / 1000 / Math.max(1, total)];
      }
    }
    await targets.close();
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[1]!;
    const rate = (name: string) => median(rates[name]!);
    const cpu = (name: string) => median(cpus[name]!);
    const against = (name: string, floor: string) =>
      `${name} ${rate(name).toFixed(0)}/s = ${(rate(name) / rate(floor)).toFixed(2)}× (CPU ${cpu(name).toFixed(2)} ms a request = ${(cpu(floor) / cpu(name)).toFixed(2)}×)`;
    log(
      `profile read on ${label}, median of 3 interleaved 3 s rounds (autocannon, 16 connections), against the handler's two prepared statements bare (${rate("bareSql").toFixed(0)}/s, CPU ${cpu("bareSql").toFixed(2)} ms a request; bare Hono + Prisma ${rate("bare").toFixed(0)}/s): ` +
        ["rest", "trpc", "graphql"].map((name) => against(name, "bareSql")).join("; ") +
        `; graphql with a fresh document every request ${against("graphqlFresh", "bareSql").slice("graphqlFresh ".length)}`,
    );
    log(
      `partner query on ${label} (viewer → brands → ${PARTNER_PROJECTS} projects with their daily performance), against the five statements it needs run bare (${rate("partnerSql").toFixed(0)}/s, CPU ${cpu("partnerSql").toFixed(2)} ms a request): ` +
        `${rate("partner").toFixed(0)}/s, so it takes ${(rate("partnerSql") / rate("partner")).toFixed(2)}× their time (CPU ${cpu("partner").toFixed(2)} ms a request = ${(cpu("partner") / cpu("partnerSql")).toFixed(2)}× theirs)`,
    );
  } finally {
    await app.close();
  }
}

/**
 * One account (Enterprise: the most slots) launches 500 jobs; then another account launches one. Its
 * wait to start is the figure, with how many of the first account's jobs were still queued then and
 * what first in, first out across accounts would have cost (the jobs ahead of it at the measured rate).
 */
async function fairness(label: string, database: DatabaseTarget) {
  const workers = 2;
  const app = await startApp(database, { WORKERS: String(workers) });
  try {
    await app.services.startWorkers(workers);
    const post = (cookie: string, path: string, body: unknown, method = "POST") =>
      fetch(`${app.url}/api${path}`, { method, headers: { cookie, "content-type": "application/json" }, body: JSON.stringify(body) });
    const admin = await login(app.url, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD);
    const burst = await login(app.url, `burst-${Date.now()}@example.com`, "password123", true);
    const burstId = (await (await fetch(`${app.url}/api/user/profile`, { headers: { cookie: burst } })).json()).data.id as string;
    const total = 500;
    await post(admin, `/admin/users/${burstId}/credits`, { amount: total, reason: "bench" });
    await post(admin, `/admin/users/${burstId}`, { current_plan_id: "subscription_enterprise" }, "PATCH");
    let next = 0;
    const launchedAt = performance.now();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < total) {
          next += 1;
          const res = await post(burst, "/workflow", { type: "staticad", concept: "burst" });
          if (res.status !== 200) throw new Error(`burst launch answered ${res.status}`);
        }
      }),
    );
    const burstSeconds = (performance.now() - launchedAt) / 1000;
    const { prisma } = app.services;
    const count = (status: "queued" | "completed") => prisma.job.count({ where: { userId: burstId, status } });

    const patient = await login(app.url, `patient-${Date.now()}@example.com`, "password123", true);
    const t = performance.now();
    const launched = await (await post(patient, "/workflow", { type: "staticad", concept: "my first ad" })).json();
    const jobId = launched.data.jobId as string;
    for (;;) {
      const job = await prisma.job.findUniqueOrThrow({ where: { id: jobId } });
      if (job.status !== "queued") break;
      if (performance.now() - t > 600_000) throw new Error("the other account's job never started");
      await new Promise((r) => setTimeout(r, 20));
    }
    const waited = (performance.now() - t) / 1000;
    const [queued, completed] = [await count("queued"), await count("completed")];
    const rate = Math.max(1, completed) / ((performance.now() - launchedAt) / 1000);
    log(
      `fairness on ${label}: one account holding ${queued} of its ${total} jobs queued (launched in ${burstSeconds.toFixed(1)} s, ${completed} done); ` +
        `another account's new job started after ${waited.toFixed(2)} s (${workers} workers doing ${rate.toFixed(1)} jobs/s: ` +
        `first in, first out across accounts would have put it behind ${queued} jobs, ≈ ${(queued / rate).toFixed(0)} s)`,
    );
  } finally {
    await app.close();
  }
}

async function postgresTarget(): Promise<{ target: DatabaseTarget; drop(): Promise<void> } | null> {
  const url = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
  const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const name = `adgen_bench_${randomBytes(4).toString("hex")}`;
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    target: { kind: "postgres", url: target.toString() },
    async drop() {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

async function main() {
  const only = process.argv[2];
  const loadAtStart = loadavg();
  /** Whether this part runs; its lines go under its own section of docs/benchmarks.md. */
  const runs = (name: string) => {
    part = name;
    return !only || only === name;
  };
  console.log(`AdGen bench on ${process.platform} ${process.arch}, node ${process.version}\n`);
  if (runs("launch")) {
    const dir = mkdtempSync(join(tmpdir(), "adgen-bench-pglite-"));
    const embedded = await launchesPerSecond("embedded PGlite (on disk)", { kind: "pglite", dataDir: join(dir, "db") });
    rmSync(dir, { recursive: true, force: true });
    const pgdb = await postgresTarget();
    if (pgdb) {
      const server = await launchesPerSecond("PostgreSQL", pgdb.target);
      await pgdb.drop();
      log(`launches: PostgreSQL / PGlite = ${(server / embedded).toFixed(2)}×`);
    } else {
      log("launches/s on PostgreSQL: skipped (no server at DATABASE_URL or 127.0.0.1:5432)");
    }
  }
  if (runs("transports")) {
    await transports("embedded PGlite (in memory)", { kind: "pglite-memory" });
    const pgdb = await postgresTarget();
    if (pgdb) {
      await transports("PostgreSQL", pgdb.target);
      await pgdb.drop();
    }
  }
  if (runs("sse")) {
    for (const subscribers of (process.env.BENCH_SSE_SUBSCRIBERS ?? "1000,10000").split(",")) await sseFanOut(Number(subscribers), "rest");
    // The same job watched as the SPA watches it.
    for (const subscribers of (process.env.BENCH_TRPC_SUBSCRIBERS ?? "1000").split(",")) await sseFanOut(Number(subscribers), "trpc");
    // And as analytics partners watch it.
    for (const subscribers of (process.env.BENCH_GRAPHQL_SUBSCRIBERS ?? "1000").split(",")) await sseFanOut(Number(subscribers), "graphql");
  }
  // Scenes over workers: a second `pnpm worker` process needs a database it can share.
  const overWorkers = async () => {
    const pgdb = await postgresTarget();
    if (pgdb?.target.kind === "postgres") {
      await renderWorkers(log, (env) => startApp(pgdb.target, env), pgdb.target.url);
      await pgdb.drop();
    } else {
      log("render workers: skipped (no PostgreSQL server at DATABASE_URL or 127.0.0.1:5432)");
    }
  };
  if (runs("render")) {
    await renders();
    await overWorkers();
  }
  // Scenes over machines: workers pinned to cores of their own, in network namespaces of their own.
  if (only === "render-workers" && runs("render-workers")) {
    const pgdb = await postgresTarget();
    if (pgdb?.target.kind === "postgres") {
      await renderFarm(log, (env) => startApp(pgdb.target, env), pgdb.target.url);
      await pgdb.drop();
    } else {
      log("render farm: skipped (no PostgreSQL server at DATABASE_URL or 127.0.0.1:5432)");
    }
  }
  if (runs("fairness")) {
    await fairness("embedded PGlite (in memory)", { kind: "pglite-memory" });
    const pgdb = await postgresTarget();
    if (pgdb) {
      await fairness("PostgreSQL", pgdb.target);
      await pgdb.drop();
    } else {
      log("fairness on PostgreSQL: skipped (no server at DATABASE_URL or 127.0.0.1:5432)");
    }
  }
  if (runs("startup")) {
    const pgdb = await postgresTarget();
    await startupAndMemory(log, pgdb?.target.kind === "postgres" ? pgdb.target.url : null);
    await pgdb?.drop();
  }
  if (runs("start")) await freshCloneStart(log);
  if (runs("knowledge")) await knowledgeUploadMemory(() => startApp({ kind: "pglite-memory" }), login, log);
  if (runs("agents")) await agentInterface(log, (env) => startApp({ kind: "pglite-memory" }, env), login);
  console.log("\nSummary:");
  for (const line of results) console.log(`- ${line}`);
  writeBenchmarks(parts, machineLine(loadAtStart));
  console.log(`\nWritten to ${BENCHMARKS_FILE}`);
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

// Projects are jobs (CONTRACT): the list, its states and JSON text fields; the CSV and ZIP exports, the
// account data export, one video through GET /export?source= (own media, an allowed CDN, and every kind
// of private address refused), background exports, ratings, preferences, stats and analytics.
import { randomBytes } from "node:crypto";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Resolver } from "../src/modules/net/safe-fetch.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";
import { readZip } from "./support/zip.ts";

const DNS: Record<string, string[]> = { "cdn.example": ["151.101.1.69"], "private-cdn.example": ["10.0.0.5"] };
const resolver: Resolver = async (host) => {
  const answer = DNS[host];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return answer;
};

const CDN_VIDEO = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypmp42"), randomBytes(64 * 1024)]);
const outbound: string[] = [];
const network = setupServer(
  http.get("https://cdn.example/videos/launch.mp4", () => new HttpResponse(CDN_VIDEO, { headers: { "content-type": "video/mp4" } })),
  http.get("https://cdn.example/videos/missing.mp4", () => new HttpResponse("nope", { status: 404 })),
  http.get(
    "https://cdn.example/videos/moved.mp4",
    () => new HttpResponse(null, { status: 302, headers: { location: "http://127.0.0.1/x.mp4" } }),
  ),
  http.get(
    "https://cdn.example/videos/moved-https.mp4",
    () => new HttpResponse(null, { status: 302, headers: { location: "https://127.0.0.1/x.mp4" } }),
  ),
);

let app: TestApp;
let user: Account;
let stranger: Account;
beforeAll(async () => {
  network.listen({
    onUnhandledRequest(request, print) {
      if (new URL(request.url).hostname !== "127.0.0.1") print.error();
    },
  });
  network.events.on("request:start", ({ request }) => {
    if (new URL(request.url).hostname !== "127.0.0.1") outbound.push(`${request.method} ${request.url}`);
  });
  // No workers at first, so projects can be seen while still queued.
  app = await startTestApp({ WORKERS: "0", EXPORT_ALLOWED_HOSTS: "cdn.example,private-cdn.example" }, { resolver });
  user = await signUp(app, "projects");
  stranger = await signUp(app, "projects-stranger");
});
afterAll(async () => {
  await app?.close();
  network.close();
});

const cookie = (account: Account) => ({ cookie: `session=${account.client.cookie}` });
const get = (path: string, account = user, headers: Record<string, string> = {}) =>
  fetch(`${app.url}/api${path}`, { headers: { ...cookie(account), ...headers } });

/** RFC 4180 CSV (quoted cells, doubled quotes, CRLF rows). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += c;
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}

let jobA: string; // cinematic 1:1 video, completes
let jobB: string; // cancelled while queued
let jobC: string; // static ad (a still), completes
let resultA: any;

async function waitForJob(jobId: string, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = (await user.client.get(`/workflow/job?jobId=${jobId}`)).body.data;
    if (job.status === "completed" || job.status === "failed") return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} is still ${job.status}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

describe("the project list", () => {
  it("lists every launch newest first; id = jobId; JSON text fields; queued shows as pending with output '{}'", async () => {
    jobA = (await user.client.post("/workflow", { type: "cinematic", concept: "Projects export ad", formats: ["1:1"] })).body.data.jobId;
    await new Promise((r) => setTimeout(r, 5));
    jobB = (await user.client.post("/workflow", { type: "painpoint", concept: '=HYPERLINK("http://evil.example","click"), "quoted"' })).body
      .data.jobId;
    expect((await user.client.post("/workflow/cancel", { jobId: jobB })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 5));
    jobC = (await user.client.post("/workflow", { type: "staticad", concept: "A still" })).body.data.jobId;

    const res = await user.client.get("/user/projects");
    expect(res.status).toBe(200);
    const projects = res.body.data as any[];
    expect(projects.map((p) => p.id)).toEqual([jobC, jobB, jobA]);
    for (const project of projects) {
      expect(project).toEqual(
        expect.objectContaining({
          id: expect.any(String),
          user_id: user.id,
          type: expect.any(String),
          status: expect.stringMatching(/^(pending|processing|completed|failed)$/),
          input_data: expect.any(String),
          output_data: expect.any(String),
          credits_used: 1,
          created_at: expect.any(String),
        }),
      );
      expect(new Date(project.created_at).toISOString()).toBe(project.created_at);
    }
    const [c, b, a] = projects;
    expect(a).toMatchObject({
      type: "cinematic",
      status: "pending",
      job_status: "queued",
      output_data: "{}",
      thumbnail: null,
      rating: null,
    });
    expect(JSON.parse(a.input_data)).toMatchObject({
      type: "cinematic",
      concept: "Projects export ad",
      formats: ["1:1"],
      quality: "standard",
    });
    expect(b).toMatchObject({ type: "painpoint", status: "failed", job_status: "failed" });
    expect(JSON.parse(b.output_data)).toEqual({ error: "Cancelled by the user; 1 credit refunded" });
    expect(c).toMatchObject({ type: "staticad", status: "pending", output_data: "{}" });
    expect((await stranger.client.get("/user/projects")).body.data).toEqual([]);
  });

  it("after the workers run, completed projects carry the job's result as output_data", { timeout: 120_000 }, async () => {
    await app.services.startWorkers(1);
    const a = await waitForJob(jobA);
    const c = await waitForJob(jobC);
    expect(a.status, a.error).toBe("completed");
    expect(c.status, c.error).toBe("completed");
    resultA = a.result;
    const projects = (await user.client.get("/user/projects")).body.data as any[];
    expect(projects.map((p) => [p.id, p.status])).toEqual([
      [jobC, "completed"],
      [jobB, "failed"],
      [jobA, "completed"],
    ]);
    const projectA = projects.find((p) => p.id === jobA);
    expect(JSON.parse(projectA.output_data)).toEqual(a.result);
    expect(projectA.thumbnail).toBe(a.result.thumbnail);
    expect((await user.client.get("/user/credits")).body.data.balance).toBe(8);
  });
});

describe("exports", () => {
  it("CSV: a header of named columns and one row per project, formulas neutralised", async () => {
    const res = await get("/user/projects/export");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="projects-\d{4}-\d{2}-\d{2}\.csv"$/);
    const rows = parseCsv(await res.text());
    const [header, ...body] = rows;
    expect(header).toEqual([
      "id",
      "name",
      "type",
      "status",
      "credits_used",
      "created_at",
      "rating",
      "final_video",
      "thumbnail",
      "formats",
      "concept",
      "error",
    ]);
    expect(body).toHaveLength(3);
    const byId = new Map(body.map((r) => [r[0], Object.fromEntries(header!.map((h, i) => [h, r[i]]))]));
    expect(byId.get(jobA)).toMatchObject({
      name: "Projects export ad",
      type: "cinematic",
      status: "completed",
      credits_used: "1",
      final_video: resultA.finalVideo,
      formats: "1:1",
      concept: "Projects export ad",
      error: "",
    });
    expect(byId.get(jobB)).toMatchObject({
      type: "painpoint",
      status: "failed",
      error: "Cancelled by the user; 1 credit refunded",
      final_video: "",
    });
    // A cell that a spreadsheet would run as a formula is prefixed; quotes survive.
    expect(byId.get(jobB)!.concept).toBe(`'=HYPERLINK("http://evil.example","click"), "quoted"`);
    expect(body.map((r) => r[0])).toEqual([jobC, jobB, jobA]);
    // Another account's CSV is just the header.
    expect(parseCsv(await (await get("/user/projects/export", stranger)).text())).toEqual([header]);
  });

  it("ZIP (?format=zip or Accept): projects.json, projects.csv and the files of completed jobs", { timeout: 30_000 }, async () => {
    const res = await get("/user/projects/export?format=zip");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="projects-\d{4}-\d{2}-\d{2}\.zip"$/);
    const entries = readZip(Buffer.from(await res.arrayBuffer()));
    // Each project's folder is named by the project (then the start of its id), not by its id alone.
    const folderA = `projects-export-ad-${jobA.slice(0, 8)}`;
    const folderC = `a-still-${jobC.slice(0, 8)}`;
    expect([...entries.keys()].sort()).toEqual(
      [
        "projects.json",
        "projects.csv",
        `${folderA}/ad-1x1.mp4`,
        `${folderA}/ad-1x1.jpg`,
        // A static ad's still variants.
        `${folderC}/ad-9x16-a.png`,
        `${folderC}/ad-9x16-b.png`,
        `${folderC}/ad-9x16-c.png`,
      ].sort(),
    );
    const json = JSON.parse(entries.get("projects.json")!.toString("utf8"));
    expect(json).toEqual((await user.client.get("/user/projects")).body.data);
    expect(parseCsv(entries.get("projects.csv")!.toString("utf8"))).toHaveLength(4);
    const video = Buffer.from(
      await (await fetch(`${app.url}${new URL(resultA.finalVideo).pathname}`, { headers: cookie(user) })).arrayBuffer(),
    );
    expect(entries.get(`${folderA}/ad-1x1.mp4`)!.equals(video)).toBe(true);
    expect([...entries.get(`${folderA}/ad-1x1.jpg`)!.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);

    const viaAccept = await get("/user/projects/export", user, { accept: "application/zip" });
    expect(viaAccept.headers.get("content-type")).toBe("application/zip");
    expect([...readZip(Buffer.from(await viaAccept.arrayBuffer())).keys()]).toHaveLength(7);
    expect((await user.client.get("/user/projects/export?format=pdf")).status).toBe(400);
  });

  it("GET /export without source: the account's data as a JSON attachment (profile, projects, ledger)", async () => {
    const res = await get("/export");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="account-export-\d{4}-\d{2}-\d{2}\.json"$/);
    const { success, data } = (await res.json()) as any;
    expect(success).toBe(true);
    expect(data.profile).toMatchObject({ id: user.id, email: user.email, credits_balance: 8 });
    expect(data.projects.map((p: any) => p.id)).toEqual([jobC, jobB, jobA]);
    expect(data.ledger.map((e: any) => [e.reason, e.delta, e.reference])).toEqual(
      expect.arrayContaining([
        ["signup_grant", 10, expect.toBeOneOf([null, user.id])],
        ["workflow_charge", -1, jobA],
        ["workflow_charge", -1, jobB],
        ["workflow_charge", -1, jobC],
        ["workflow_refund", 1, jobB],
      ]),
    );
    expect(data.ledger).toHaveLength(5);
    expect(data.ledger.reduce((sum: number, e: any) => sum + e.delta, 0)).toBe(data.profile.credits_balance);
    expect(JSON.stringify(data)).not.toContain("password");
  });

  it.each([
    "http://127.0.0.1/x",
    "http://2130706433/",
    "http://0177.0.0.1/",
    "http://[::1]/",
    "http://localhost/",
    "https://127.0.0.1/x.mp4",
    "https://2130706433/x.mp4",
    "https://0177.0.0.1/x.mp4",
    "https://0x7f.1/x.mp4",
    "https://[::1]/x.mp4",
    "https://[::ffff:127.0.0.1]/x.mp4",
    "https://localhost/x.mp4",
    "https://169.254.169.254/latest/meta-data",
    "https://private-cdn.example/x.mp4",
    "https://other.example/video.mp4",
    "http://cdn.example/videos/launch.mp4",
    "https://user:pass@cdn.example/videos/launch.mp4",
    "file:///etc/passwd",
    "not a url",
    "https://cdn.example/videos/moved.mp4",
    "https://cdn.example/videos/moved-https.mp4",
    "https://cdn.example/videos/missing.mp4",
  ])("GET /export?source=%s answers 400 and reaches no private address", async (source) => {
    outbound.length = 0;
    const res = await user.client.get(`/export?source=${encodeURIComponent(source)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.error).toEqual(expect.any(String));
    expect(outbound.every((r) => r.startsWith("GET https://cdn.example/"))).toBe(true);
  });

  it("GET /export?source= serves the service's own media URL and a video from an allowed host", async () => {
    const own = await get(`/export?source=${encodeURIComponent(resultA.finalVideo)}`);
    expect(own.status).toBe(200);
    expect(own.headers.get("content-type")).toBe("video/mp4");
    expect(own.headers.get("content-disposition")).toBe('attachment; filename="ad-1x1.mp4"');
    const ownBytes = Buffer.from(await own.arrayBuffer());
    expect(ownBytes.subarray(4, 8).toString("latin1")).toBe("ftyp");
    const direct = Buffer.from(
      await (await fetch(`${app.url}${new URL(resultA.finalVideo).pathname}`, { headers: cookie(user) })).arrayBuffer(),
    );
    expect(ownBytes.equals(direct)).toBe(true);

    outbound.length = 0;
    const cdn = await get(`/export?source=${encodeURIComponent("https://cdn.example/videos/launch.mp4")}`);
    expect(cdn.status).toBe(200);
    expect(cdn.headers.get("content-type")).toBe("video/mp4");
    expect(cdn.headers.get("content-disposition")).toBe('attachment; filename="launch.mp4"');
    expect(Buffer.from(await cdn.arrayBuffer()).equals(CDN_VIDEO)).toBe(true);
    expect(outbound).toEqual(["GET https://cdn.example/videos/launch.mp4"]);
    // Unknown files of one's own jobs are 404, not a fetch.
    expect(
      (await user.client.get(`/export?source=${encodeURIComponent(resultA.finalVideo.replace("ad-1x1.mp4", "nope.mp4"))}`)).status,
    ).toBe(404);
  });

  it("POST /export starts a background export; GET /export/{id} until completed; then the ZIP downloads", { timeout: 60_000 }, async () => {
    const started = await user.client.post("/export");
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const exportId = started.body.data.exportId as string;
    expect(started.body.data).toMatchObject({ exportId, downloadUrl: null });
    let state: any;
    const deadline = Date.now() + 30_000;
    for (;;) {
      state = (await user.client.get(`/export/${exportId}`)).body.data;
      if (state.status === "completed" || state.status === "failed" || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 150));
    }
    expect(state).toMatchObject({ exportId, status: "completed", error: null, bytes: expect.any(Number), completedAt: expect.any(String) });
    expect(state.downloadUrl).toMatch(new RegExp(`/api/export/${exportId}/download$`));
    expect((await stranger.client.get(`/export/${exportId}`)).status).toBe(404);
    expect((await stranger.client.get(`/export/${exportId}/download`)).status).toBe(404);
    const file = await get(`/export/${exportId}/download`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/zip");
    const zip = Buffer.from(await file.arrayBuffer());
    expect(zip.length).toBe(state.bytes);
    expect([...readZip(zip).keys()]).toEqual(
      expect.arrayContaining(["projects.json", "projects.csv", `projects-export-ad-${jobA.slice(0, 8)}/ad-1x1.mp4`]),
    );
  });
});

describe("ratings, preferences, stats and analytics", () => {
  it("POST /workflow/review rates a project; bad rating, long feedback and foreign projects are refused", async () => {
    const ok = await user.client.post("/workflow/review", { projectId: jobA, rating: "up", feedback: "Lovely" });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toMatchObject({ projectId: jobA, rating: "up", feedback: "Lovely", ratedAt: expect.any(String) });
    expect((await user.client.post("/workflow/review", { projectId: jobA, rating: "meh" })).body).toEqual({
      success: false,
      error: "Rate the project up or down",
    });
    const long = await user.client.post("/workflow/review", { projectId: jobA, rating: "down", feedback: "x".repeat(501) });
    expect(long.status).toBe(400);
    expect(long.body.error).toBe("Feedback must be at most 500 characters");
    expect((await user.client.post("/workflow/review", { projectId: jobA, rating: "down", feedback: "x".repeat(500) })).status).toBe(200);
    const foreign = await stranger.client.post("/workflow/review", { projectId: jobA, rating: "down" });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ success: false, error: "Project not found" });
    expect((await user.client.post("/workflow/review", { rating: "up" })).status).toBe(400);

    const history = (await user.client.get("/workflow/review")).body.data;
    expect(history).toEqual([expect.objectContaining({ projectId: jobA, rating: "down", feedback: "x".repeat(500) })]);
    const project = (await user.client.get("/user/projects")).body.data.find((p: any) => p.id === jobA);
    expect(project.rating).toBe("down");
    expect((await stranger.client.get("/workflow/review")).body.data).toEqual([]);
  });

  it("GET/POST /workflow/prefs round-trips (merged) and refuses unknown fields", async () => {
    expect((await user.client.get("/workflow/prefs")).body.data).toEqual({});
    const saved = await user.client.post("/workflow/prefs", { quality: "premium", formats: ["9:16", "4:5"], framework: "pas" });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((await user.client.post("/workflow/prefs", { hitl: true })).body.data).toEqual({
      quality: "premium",
      formats: ["9:16", "4:5"],
      framework: "pas",
      hitl: true,
    });
    expect((await user.client.get("/workflow/prefs")).body.data).toEqual({
      quality: "premium",
      formats: ["9:16", "4:5"],
      framework: "pas",
      hitl: true,
    });
    for (const body of [{ colour: "red" }, { formats: ["3:2"] }, { quality: "ultra" }, { hitl: "yes" }]) {
      const res = await user.client.post("/workflow/prefs", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.success).toBe(false);
    }
    expect((await user.client.post("/workflow/prefs", { colour: "red" })).body.error).toMatch(/colour/);
    expect((await user.client.get("/workflow/prefs")).body.data).toEqual({
      quality: "premium",
      formats: ["9:16", "4:5"],
      framework: "pas",
      hitl: true,
    });
    expect((await stranger.client.get("/workflow/prefs")).body.data).toEqual({});
  });

  it("GET /user/stats agrees with what was launched and refunded; bad dates are 400", async () => {
    const res = await user.client.get("/user/stats");
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      totalProjects: 3,
      creditsCharged: 3,
      creditsRefunded: 1,
      creditsUsed: 2,
      completed: 2,
      failed: 1,
      inProgress: 0,
      successRate: expect.closeTo(2 / 3, 2),
      projectsByType: {
        cinematic: { total: 1, completed: 1, failed: 0, credits: 1 },
        painpoint: { total: 1, completed: 0, failed: 1, credits: 0 },
        staticad: { total: 1, completed: 1, failed: 0, credits: 1 },
      },
    });
    const today = new Date().toISOString().slice(0, 10);
    expect((await user.client.get(`/user/stats?startDate=${today}&endDate=${today}`)).body.data).toMatchObject({
      totalProjects: 3,
      creditsUsed: 2,
    });
    expect((await user.client.get("/user/stats?startDate=2020-01-01&endDate=2020-01-31")).body.data).toMatchObject({
      totalProjects: 0,
      creditsUsed: 0,
      successRate: null,
    });
    const bad = await user.client.get("/user/stats?startDate=2024-13-01");
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("startDate must be a date YYYY-MM-DD");
    expect((await user.client.get("/user/stats?endDate=yesterday")).status).toBe(400);
    expect((await user.client.get("/user/stats?startDate=2024-02-02&endDate=2024-02-01")).status).toBe(400);
    expect((await stranger.client.get("/user/stats")).body.data).toMatchObject({ totalProjects: 0, creditsUsed: 0 });
  });

  it("GET /user/analytics agrees too; period=1y is 400", async () => {
    const res = await user.client.get("/user/analytics?period=7d");
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.period).toBe("7d");
    expect(data.trends).toHaveLength(7);
    expect(data.trends.reduce((sum: number, d: any) => sum + d.projects, 0)).toBe(3);
    expect(data.trends.at(-1)).toMatchObject({ date: new Date().toISOString().slice(0, 10), projects: 3, completed: 2, credits: 2 });
    expect(data.usageByType).toEqual({ cinematic: 1, painpoint: 1, staticad: 1 });
    expect(data.creditDistribution).toEqual({ signup_grant: 10, workflow_charge: -3, workflow_refund: 1 });
    // Peak hours: the busiest of the 24 hourly counts (all three launches fall in one or two hours).
    expect(data.hourly.reduce((sum: number, h: any) => sum + h.projects, 0)).toBe(3);
    expect(data.peakHours[0]).toEqual(data.hourly.reduce((best: any, h: any) => (h.projects > best.projects ? h : best)));
    expect(data.peakHours.every((h: any) => h.projects > 0)).toBe(true);
    expect((await user.client.get("/user/analytics")).body.data.trends).toHaveLength(30);
    const bad = await user.client.get("/user/analytics?period=1y");
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("period must be 7d, 30d or 90d");
  });
});

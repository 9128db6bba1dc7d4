// Managing projects: a name from the concept, rename, search by name or concept, delete with
// its media files, another account's project as 404, and a project still being made refused with 409.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, signUp } from "./support/accounts.ts";
import { graphql, trpcClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let user: Account;
let stranger: Account;
beforeAll(async () => {
  app = await startTestApp({ WORKERS: "1", STUDIO_MAX_AD_SECONDS: "2" });
  user = await signUp(app, "manage");
  stranger = await signUp(app, "manage-stranger");
});
afterAll(async () => {
  await app?.close();
});

const LONG_CONCEPT = "Fresh sourdough baked every morning in Springfield, delivered warm to your door before breakfast on weekdays";

async function launch(account: Account, body: Record<string, unknown>): Promise<string> {
  const res = await account.client.post("/workflow", { type: "staticad", formats: ["1:1"], ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.jobId as string;
}

async function waitForStatus(jobId: string, statuses: string[], timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = (await user.client.get(`/workflow/job?jobId=${jobId}`)).body.data;
    if (statuses.includes(job.status)) return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} is still ${job.status} at ${job.step}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const listed = async (query = "") => (await user.client.get(`/user/projects${query}`)).body.data as { id: string; name: string }[];
const mediaDir = (jobId: string) => join(app.config.dataDir, "media", "jobs", jobId);

describe("project names", () => {
  let jobId: string;
  beforeAll(async () => {
    jobId = await launch(user, { concept: LONG_CONCEPT, hitl: true });
  });

  it("are the concept's first sentence or clause, never cut mid-sentence", async () => {
    const project = (await listed()).find((p) => p.id === jobId)!;
    expect(project.name).toBe("Fresh sourdough baked every morning in Springfield");
    expect(project.name.length).toBeLessThanOrEqual(61);
  });

  it("are the kind of ad when there is no concept", async () => {
    const id = await launch(user, { hitl: true });
    expect((await listed()).find((p) => p.id === id)?.name).toBe("Static ads");
  });

  it("can be changed by the owner on REST, tRPC and GraphQL", async () => {
    const renamed = await user.client.patch(`/user/projects/${jobId}`, { name: "  Sourdough spring launch  " });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.data).toMatchObject({ id: jobId, name: "Sourdough spring launch", type: "staticad" });
    expect((await listed()).find((p) => p.id === jobId)?.name).toBe("Sourdough spring launch");

    const viaTrpc = await trpcClient(app.url, user.jwt).projects.rename.mutate({ id: jobId, name: "Bakery, take two" });
    expect(viaTrpc.name).toBe("Bakery, take two");
    const viaGql = await graphql(
      app.url,
      `mutation($id: String!) { projectsRename(id: $id, name: "Bakery, take three") { name } }`,
      { id: jobId },
      user.jwt,
    );
    expect(viaGql.body.data?.projectsRename).toEqual({ name: "Bakery, take three" });
  });

  it("refuses an empty or overlong name in words, with the field key apart", async () => {
    const empty = await user.client.patch(`/user/projects/${jobId}`, { name: "   " });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe("Give the project a name: it cannot be empty");
    expect(empty.fields).toEqual([{ field: "name", message: "Give the project a name: it cannot be empty" }]);
    const long = await user.client.patch(`/user/projects/${jobId}`, { name: "x".repeat(81) });
    expect(long.status).toBe(400);
    expect(long.body.error).toBe("A project name can be at most 80 characters");
  });

  it("answers 404 for another account's project, and changes nothing", async () => {
    const res = await stranger.client.patch(`/user/projects/${jobId}`, { name: "Mine now" });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: "Project not found" });
    expect((await listed()).find((p) => p.id === jobId)?.name).toBe("Bakery, take three");
  });
});

describe("searching projects", () => {
  let sourdough: string;
  let candles: string;
  beforeAll(async () => {
    sourdough = await launch(user, { concept: "Rye and SOURDOUGH loaves for the weekend", hitl: true });
    candles = await launch(user, { concept: "Hand-poured soy candles, 100% natural", hitl: true });
  });

  it("finds the name or the concept, in any case", async () => {
    const byConcept = (await listed("?q=sourdough")).map((p) => p.id);
    expect(byConcept).toContain(sourdough);
    expect(byConcept).not.toContain(candles);
    await user.client.patch(`/user/projects/${candles}`, { name: "Winter glow" });
    expect((await listed("?q=WINTER%20GLOW")).map((p) => p.id)).toEqual([candles]);
  });

  it("takes % and _ literally, and an empty search lists everything", async () => {
    expect((await listed("?q=100%25")).map((p) => p.id)).toEqual([candles]);
    expect(await listed("?q=_")).toEqual([]);
    expect((await listed("?q=")).length).toBe((await listed()).length);
  });

  it("never shows another account's projects", async () => {
    const res = await stranger.client.get("/user/projects?q=sourdough");
    expect(res.body).toEqual({ success: true, data: [] });
  });
});

describe("deleting a project", () => {
  it("refuses a project still being made with 409, and deletes it with its files once cancelled", { timeout: 120_000 }, async () => {
    const jobId = await launch(user, { concept: "Weekend brunch at the corner cafe", hitl: true });
    const running = await user.client.delete(`/user/projects/${jobId}`);
    expect(running.status).toBe(409);
    expect(running.body.error).toBe("This project is still being made. Cancel it first (its credits are refunded), then delete it.");
    expect((await listed()).map((p) => p.id)).toContain(jobId);

    await waitForStatus(jobId, ["awaiting_review"]);
    expect((await user.client.delete(`/user/projects/${jobId}`)).status).toBe(409);
    expect((await user.client.post("/workflow/cancel", { jobId })).status).toBe(200);
    const deleted = await user.client.delete(`/user/projects/${jobId}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body.data).toEqual({ id: jobId, deleted: true });
    expect((await listed()).map((p) => p.id)).not.toContain(jobId);
  });

  it("removes a finished project's media files and its row", { timeout: 120_000 }, async () => {
    const jobId = await launch(user, { concept: "Handmade leather wallets that last a lifetime" });
    const job = await waitForStatus(jobId, ["completed", "failed"]);
    expect(job.status, job.error).toBe("completed");
    const file = new URL(job.result.assets[0].url).pathname;
    expect(readdirSync(mediaDir(jobId)).length).toBeGreaterThan(0);
    expect((await fetch(`${app.url}${file}`, { headers: { cookie: `session=${user.client.cookie}` } })).status).toBe(200);

    expect((await stranger.client.delete(`/user/projects/${jobId}`)).status).toBe(404);
    expect(existsSync(mediaDir(jobId))).toBe(true);

    const deleted = await user.client.delete(`/user/projects/${jobId}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(existsSync(mediaDir(jobId))).toBe(false);
    expect((await fetch(`${app.url}${file}`, { headers: { cookie: `session=${user.client.cookie}` } })).status).toBe(404);
    expect((await user.client.get(`/workflow/job?jobId=${jobId}`)).status).toBe(404);
    expect((await user.client.delete(`/user/projects/${jobId}`)).status).toBe(404);
  });
});

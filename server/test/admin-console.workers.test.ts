// With workers running: the workers' own sweep runs the agents and records each run (GET /admin/agents
// shows them, triggered by the schedule), and the self-marketing ad really renders on the house account,
// its files visible in the marketing status.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_ENV, adminClient, eventually } from "./support/accounts.ts";
import type { RestClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let admin: RestClient;
beforeAll(async () => {
  app = await startTestApp({ ...ADMIN_ENV, WORKERS: "1", SWEEP_SECONDS: "1" });
  admin = await adminClient(app);
});
afterAll(() => app?.close());

describe("agents run by the workers' sweep", () => {
  it("records every agent's scheduled run: status, last run, next run", async () => {
    const agents = await eventually(async () => {
      const list = (await admin.get("/admin/agents")).body.data.agents as { id: string; status: string; trigger: string; runs: number }[];
      expect(list.every((agent) => agent.runs >= 1 && agent.status === "ok")).toBe(true);
      return list;
    }, 15_000);
    for (const agent of agents)
      expect(agent).toMatchObject({ trigger: "schedule", lastError: null, lastRunAt: expect.any(String), nextRunAt: expect.any(String) });
    // The sweeps keep running: review expiry runs again after its period.
    const first = agents.find((agent) => agent.id === "review-expiry")!;
    await eventually(async () => {
      const again = (await admin.get("/admin/agents")).body.data.agents.find((agent: { id: string }) => agent.id === "review-expiry");
      expect(again.runs).toBeGreaterThan(first.runs);
    }, 10_000);
    const system = (await admin.get("/admin/system")).body.data;
    expect(system.workers).toMatchObject({ workflowConcurrency: 1, polling: expect.arrayContaining(["workflow", "webhook"]) });
    expect(system.scheduledTasks.map((task: { id: string }) => task.id)).toEqual([
      "review-expiry",
      "orphaned-jobs",
      "webhook-retries",
      "performance-decay",
    ]);
  });
});

describe("the self-marketing ad", () => {
  it("renders on the house account through the real workflow; its status shows the files", async () => {
    const started = await admin.post("/admin/marketing/generate", { kinds: ["ad"] });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const [run] = started.body.data.runs;
    expect(run).toMatchObject({ kind: "ad", status: "running", jobId: expect.any(String) });
    const done = await eventually(async () => {
      const status = (await admin.get("/admin/marketing/generate")).body.data.runs.find((r: { id: string }) => r.id === run.id);
      expect(status.status).not.toBe("running");
      return status;
    }, 90_000);
    expect(done, JSON.stringify(done)).toMatchObject({ status: "completed", output: { jobStatus: "completed" } });
    const assets = done.output.assets as { url: string }[];
    expect(assets.length).toBeGreaterThan(0);
    const file = await fetch(assets[0]!.url.replace(app.config.publicUrl, app.url), { headers: { cookie: `session=${admin.cookie}` } });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toMatch(/^image\/png/);
  }, 120_000);
});

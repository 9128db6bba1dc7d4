// GraphQL outputs are typed wherever the shape is known: a job's launch request, its result's
// storyboard and its events' results are object types; records keyed by data (workflow type → figures)
// are lists of `{ key, value }` entries, and an event's result is read by the event's type into one object
// (a finished job's result, a refund, a finished step, a review, a worker's update, a rendered format). Only data that is really free-form keeps the JSON scalar. REST
// answers the same data in its own shape, unchanged.
import { randomUUID } from "node:crypto";
import { getNamedType, isInputObjectType, isObjectType } from "graphql";
import { type Client, createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { graphQLSchema } from "../src/graphql/schema.ts";
import { emitJobEvent } from "../src/modules/workflows/jobs/job-events.ts";
import { signUp, type Account } from "./support/accounts.ts";
import { graphql } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let owner: Account;
const jobId = randomUUID();

/** Output fields whose data has no fixed shape: agents' results, audit metadata, assistant tool calls. */
const FREE_FORM = [
  "AdminTriggerAgent.lastResult",
  "AdminAgentsAgents.lastResult",
  "AdminActivityEntries.metadata",
  "AdminMarketingRuns.output",
  "AdminGenerateMarketingRuns.output",
  "AssistantToolCall.arguments",
  "AssistantToolCall.result",
];

beforeAll(async () => {
  app = await startTestApp();
  owner = await signUp(app, "typed-outputs");
  await app.services.prisma.job.create({
    data: {
      id: jobId,
      userId: owner.id,
      type: "cinematic",
      quality: "standard",
      status: "completed",
      creditsUsed: 12,
      input: { type: "cinematic", concept: "Cold brew at dawn", brand: "brand-x", formats: ["9:16", "1:1"], hitl: false },
      result: {
        finalVideo: "/media/final.mp4",
        thumbnail: "/media/final.jpg",
        assets: [],
        storyboard: {
          title: "Dawn",
          brand: { name: "Brew", primary: "#112233" },
          scenes: [{ id: "s1", durationSec: 3, headline: "Wake up", imagePath: "/tmp/internal.png" }],
          mood: "calm",
        },
      },
    },
  });
});
const sockets: Client[] = [];
afterAll(async () => {
  for (const socket of sockets) await socket.dispose();
  await app?.close();
});

describe("typed GraphQL outputs", () => {
  it("keeps the JSON scalar only where the data is free-form", () => {
    const json: string[] = [];
    for (const type of Object.values(graphQLSchema().getTypeMap())) {
      if (type.name.startsWith("__") || !(isObjectType(type) || isInputObjectType(type))) continue;
      if (isInputObjectType(type)) continue;
      for (const [name, field] of Object.entries(type.getFields())) {
        if (getNamedType(field.type).name === "JSON") json.push(`${type.name}.${name}`);
      }
    }
    expect(json.sort()).toEqual([...FREE_FORM].sort());
  });

  it("answers a job's launch request and storyboard as typed objects, with what REST answers", async () => {
    const res = await graphql(
      app.url,
      `query($id: String!) { workflowJob(jobId: $id) {
        input { type concept brand formats hitl }
        result { storyboard { title brand { name primary } mood scenes { id durationSec headline } } }
      } }`,
      { id: jobId },
      owner.jwt,
    );
    expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
    expect(res.body.data.workflowJob).toEqual({
      input: { type: "cinematic", concept: "Cold brew at dawn", brand: "brand-x", formats: ["9:16", "1:1"], hitl: false },
      result: {
        storyboard: {
          title: "Dawn",
          brand: { name: "Brew", primary: "#112233" },
          mood: "calm",
          scenes: [{ id: "s1", durationSec: 3, headline: "Wake up" }],
        },
      },
    });
    // REST keeps its shape: the stored objects as they are.
    const rest = await owner.client.get(`/workflow/job?jobId=${jobId}`);
    expect(rest.status).toBe(200);
    expect(rest.body.data.input.brand).toBe("brand-x");
    expect(rest.body.data.result.storyboard.scenes[0].headline).toBe("Wake up");
    // A local path an older result stored is the server's own: answered on neither transport.
    expect(rest.body.data.result.storyboard.scenes[0]).not.toHaveProperty("imagePath");
  });

  it("lists a record keyed by workflow type as entries, with REST's figures", async () => {
    const res = await graphql(
      app.url,
      `{ userStats { totalProjects projectsByType { key value { total completed failed credits } } } }`,
      {},
      owner.jwt,
    );
    expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
    expect(res.body.data.userStats.projectsByType).toEqual([
      { key: "cinematic", value: { total: 1, completed: 1, failed: 0, credits: 12 } },
    ]);
    const rest = await owner.client.get("/user/stats");
    expect(rest.body.data.projectsByType).toEqual({ cinematic: { total: 1, completed: 1, failed: 0, credits: 12 } });
  });
});

const EVENT_RESULT = `subscription($jobId: String!) { workflowStream(jobId: $jobId) {
  id type
  result {
    completedStep review refunded format url
    update { warnings finalVideo }
    workflow { finalVideo assets { url format } }
  }
} }`;

interface StreamedEvent {
  id: number;
  type: string;
  result: Record<string, unknown> | null;
}

/** Every event of a job's stream over graphql-ws, until it completes. */
function subscribeOverWebSocket(jobId: string) {
  const socket = createClient({
    url: `${app.url.replace(/^http/, "ws")}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${owner.jwt}` },
    retryAttempts: 0,
  });
  sockets.push(socket);
  const seen = { events: [] as StreamedEvent[], errors: [] as unknown[], completed: false };
  socket.subscribe<{ workflowStream: StreamedEvent }>(
    { query: EVENT_RESULT, variables: { jobId } },
    {
      next: (value) => {
        if (value.errors) seen.errors.push(value.errors);
        else seen.events.push(value.data!.workflowStream);
      },
      error: (error) => seen.errors.push(error),
      complete: () => {
        seen.completed = true;
      },
    },
  );
  return seen;
}

const NOTHING = { completedStep: null, review: null, refunded: null, format: null, url: null, update: null, workflow: null };

describe("a job event's result on GraphQL", () => {
  const launch = async () => {
    const res = await owner.client.post("/workflow", { type: "cinematic", concept: "a kettle that sings in tune" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.jobId as string;
  };
  /** A launched job, its stream open over graphql-ws and its first event (the state) in. */
  const launchWatched = async () => {
    const id = await launch();
    const seen = subscribeOverWebSocket(id);
    await expect.poll(() => seen.events.length, { timeout: 10_000 }).toBe(1);
    const job = await app.services.prisma.job.findUniqueOrThrow({ where: { id } });
    return { id, seen, job };
  };
  const update = async (id: string, body: Record<string, unknown>) => {
    const res = await owner.client.post("/workflow/stream", { jobId: id, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  it("is typed by the event's type: a finished step, a worker's update, a rendered format, the job's result", async () => {
    const { id, seen, job } = await launchWatched();
    // The pipeline's own markers (run-job.ts, finish-job.ts), stored and published as it does.
    await emitJobEvent(app.services, job, "workflow.step", {
      step: "render",
      status: "processing",
      progress: 30,
      result: { completed: "render" },
    });
    await emitJobEvent(app.services, job, "video.ready", {
      step: "render",
      status: "processing",
      progress: 60,
      result: { format: "9:16", url: "https://cdn.example.com/ad-9x16.mp4" },
    });
    await update(id, { progress: 70, result: { finalVideo: null, thumbnail: null, assets: [], warnings: ["draft"] } });
    const late = subscribeOverWebSocket(id);
    await expect.poll(() => late.events.length, { timeout: 10_000 }).toBe(1);
    const asset = { url: "https://cdn.example.com/ad.mp4", type: "video", format: "9:16", duration: 6, platform: "tiktok" };
    await update(id, { status: "completed", result: { finalVideo: asset.url, thumbnail: null, assets: [asset] } });
    await expect.poll(() => seen.completed, { timeout: 10_000 }).toBe(true);
    expect(seen.errors).toEqual([]);
    const byType = (type: string) => seen.events.filter((event) => event.type === type).map((event) => event.result);
    expect(seen.events[0]!.result).toBeNull();
    expect(byType("workflow.step")).toEqual([
      { ...NOTHING, completedStep: "render" },
      { ...NOTHING, update: { warnings: ["draft"], finalVideo: null } },
    ]);
    expect(byType("video.ready")).toEqual([{ ...NOTHING, format: "9:16", url: "https://cdn.example.com/ad-9x16.mp4" }, null]);
    expect(byType("workflow.completed")).toEqual([
      { ...NOTHING, workflow: { finalVideo: asset.url, assets: [{ url: asset.url, format: "9:16" }] } },
    ]);
    // A stream opened once the job had a result started with its state: the result so far.
    await expect.poll(() => late.completed, { timeout: 10_000 }).toBe(true);
    expect(late.errors).toEqual([]);
    expect(late.events[0]).toMatchObject({ type: "workflow.state", result: { ...NOTHING, workflow: { finalVideo: null, assets: [] } } });
  });

  it("carries a failed job's refund, and a review's decision", async () => {
    const { id, seen, job } = await launchWatched();
    await emitJobEvent(app.services, job, "workflow.suspended", {
      step: "review",
      status: "awaiting_review",
      progress: 40,
      result: { review: "pending" },
    });
    await emitJobEvent(app.services, job, "workflow.step", {
      step: "review",
      status: "queued",
      progress: 40,
      result: { review: "approved" },
    });
    await update(id, { status: "failed", result: { error: "stand-in failure" } });
    await expect.poll(() => seen.completed, { timeout: 10_000 }).toBe(true);
    expect(seen.errors).toEqual([]);
    const results = Object.fromEntries(seen.events.slice(1).map((event) => [event.type, event.result]));
    expect(results["workflow.suspended"]).toEqual({ ...NOTHING, review: "pending" });
    expect(results["workflow.step"]).toEqual({ ...NOTHING, review: "approved" });
    expect(job.creditsUsed).toBeGreaterThan(0);
    expect(results["workflow.failed"]).toEqual({ ...NOTHING, refunded: job.creditsUsed });
  });
});

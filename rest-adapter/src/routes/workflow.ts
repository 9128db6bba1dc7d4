import {
  BatchQuery,
  CostEstimate,
  HitlDecision,
  JobIdInput,
  JobView,
  LaunchResponse,
  ReviewInput,
  WorkerUpdate,
  WorkflowPrefs,
  WorkflowRequest,
  type WorkflowRequestInput,
} from "@adgen/schema";
import { openJobMedia } from "@adgen/server/media/serve-media.ts";
import { readBearer } from "@adgen/server/modules/auth/authenticate.ts";
import { getWorkflowPrefs, rateProject, reviewHistory, saveWorkflowPrefs } from "@adgen/server/modules/projects/projects.ts";
import { batchStatus } from "@adgen/server/modules/workflows/batch.ts";
import { cancelJob } from "@adgen/server/modules/workflows/cancel-job.ts";
import { decideHitl, getHitlState } from "@adgen/server/modules/workflows/hitl.ts";
import { openJobStream, watchAccountJobEvents } from "@adgen/server/modules/workflows/job-stream.ts";
import { getJob } from "@adgen/server/modules/workflows/jobs.ts";
import { estimateWorkflow, launchWorkflow } from "@adgen/server/modules/workflows/launch-workflow.ts";
import { postWorkerUpdate } from "@adgen/server/modules/workflows/worker-updates.ts";
import type { z } from "zod";
import { route } from "../route.ts";
import { rangedFile, sseResponse } from "../streaming.ts";

const workflow = { tag: "Workflow", auth: "user" } as const;

export const workflowRoutes = [
  route({
    ...workflow,
    method: "POST",
    path: "/workflow",
    operation: "workflow.launch",
    summary:
      "Launch a workflow: charged once, queued (async) or awaited (async: false). Send an Idempotency-Key header to make retries safe.",
    body: WorkflowRequest,
    response: LaunchResponse.shape.data,
    errors: {
      402: "Insufficient credits or trial expired",
      403: "Reserved workflow on this plan",
      404: "Brand not found",
      409: "Idempotency-Key reused with a different body",
    },
    handler: async (ctx, { body, headers }) => {
      const outcome = await launchWorkflow(ctx, body as WorkflowRequestInput, { idempotencyKey: headers.get("idempotency-key") });
      return Response.json(
        { success: true, data: outcome.data, jobId: outcome.data.jobId, message: outcome.message, cost: outcome.cost },
        { headers: outcome.replayed ? { "Idempotent-Replayed": "true" } : {} },
      );
    },
  }),
  route({
    ...workflow,
    method: "POST",
    path: "/workflow/estimate",
    operation: "workflow.estimate",
    summary: "What a launch would cost and whether it would be accepted now (nothing is charged)",
    body: WorkflowRequest,
    response: CostEstimate,
    handler: (ctx, { body }) => estimateWorkflow(ctx, body as WorkflowRequestInput),
  }),
  route({
    ...workflow,
    method: "POST",
    path: "/workflow/cancel",
    operation: "workflow.cancel",
    summary: "Cancel a job that has not finished; its credits are refunded",
    body: JobIdInput,
    response: JobView,
    errors: { 404: "Job not found", 409: "Job already finished" },
    handler: (ctx, { body }) => cancelJob(ctx, (body as { jobId?: string })?.jobId ?? ""),
  }),
  route({
    ...workflow,
    method: "GET",
    path: "/workflow/job",
    operation: "workflow.job",
    summary: "A job's current state",
    query: JobIdInput,
    response: JobView,
    errors: { 404: "Job not found" },
    handler: (ctx, { query }) => getJob(ctx, query.jobId ?? ""),
  }),
  route({
    ...workflow,
    method: "GET",
    path: "/workflow/stream",
    operation: "workflow.stream",
    rateLimit: "stream",
    summary: "Server-Sent Events of a job: `step` events, then one `result`; Last-Event-ID resumes; heartbeats every 15 s",
    query: JobIdInput,
    errors: { 404: "Job not found" },
    handler: async (ctx, { query, headers, signal }) => {
      const last = headers.get("last-event-id") ?? query.lastEventId;
      const { items } = await openJobStream(ctx, query.jobId ?? "", { lastEventId: last ? Number(last) : null, signal });
      return sseResponse(
        (async function* () {
          for await (const item of items) yield { id: item.data.id, event: item.event, data: item.data };
        })(),
        { signal },
      );
    },
  }),
  route({
    ...workflow,
    method: "POST",
    path: "/workflow/stream",
    operation: "workflow.workerUpdate",
    summary: "A worker reports progress (job owner, an admin, or the bearer WORKER_TOKEN)",
    body: WorkerUpdate,
    response: JobView,
    errors: { 404: "Job not found", 409: "Job already finished" },
    handler: (ctx, { body, headers }) =>
      postWorkerUpdate(ctx, body as z.input<typeof WorkerUpdate>, { workerToken: readBearer(headers.get("authorization")) }),
  }),
  route({
    ...workflow,
    method: "GET",
    path: "/workflow/hitl",
    operation: "workflow.hitl",
    summary: "Review state of a job: storyboard, copy and a preview frame per scene",
    query: JobIdInput,
    errors: { 404: "Job not found" },
    handler: (ctx, { query }) => getHitlState(ctx, query.jobId ?? ""),
  }),
  route({
    ...workflow,
    method: "POST",
    path: "/workflow/hitl",
    operation: "workflow.hitlDecide",
    summary: "Approve (resumes rendering) or reject (fails and refunds) a job waiting for review",
    body: HitlDecision,
    errors: { 404: "Job not found", 409: "Job is not waiting for review" },
    handler: (ctx, { body }) => decideHitl(ctx, body as z.input<typeof HitlDecision>),
  }),
  route({
    ...workflow,
    method: "GET",
    path: "/workflow/review",
    operation: "workflow.reviews",
    summary: "Ratings and review decisions of the account's projects",
    handler: (ctx) => reviewHistory(ctx),
  }),
  route({
    ...workflow,
    method: "POST",
    path: "/workflow/review",
    operation: "workflow.rate",
    summary: "Rate a project up or down with optional feedback",
    body: ReviewInput,
    errors: { 404: "Project not found" },
    handler: (ctx, { body }) => rateProject(ctx, body as z.input<typeof ReviewInput>),
  }),
  route({
    ...workflow,
    method: "GET",
    path: "/workflow/prefs",
    operation: "workflow.prefs",
    summary: "Studio defaults",
    response: WorkflowPrefs,
    handler: (ctx) => getWorkflowPrefs(ctx),
  }),
  route({
    ...workflow,
    method: "POST",
    path: "/workflow/prefs",
    operation: "workflow.savePrefs",
    summary: "Save studio defaults (merged)",
    body: WorkflowPrefs,
    response: WorkflowPrefs,
    handler: (ctx, { body }) => saveWorkflowPrefs(ctx, body as z.input<typeof WorkflowPrefs>),
  }),
  route({
    ...workflow,
    method: "GET",
    path: "/batch/status",
    operation: "workflow.batchStatus",
    summary: "A factory batch: counts of renders and per-render progress",
    query: BatchQuery,
    errors: { 404: "Batch not found" },
    handler: (ctx, { query }) => batchStatus(ctx, query as { batchId: string }),
  }),
  route({
    ...workflow,
    method: "GET",
    path: "/events/stream",
    operation: "events.stream",
    rateLimit: "stream",
    summary: "Server-Sent Events of the account's job events (an admin receives all); the event name is the kind",
    handler: (ctx, { signal }) => {
      // Called here, not inside the stream, so a missing credential is a 401 rather than a 200 stream with an error.
      const events = watchAccountJobEvents(ctx, signal);
      return sseResponse(
        (async function* () {
          for await (const event of events) yield { id: event.id, event: event.type, data: event };
        })(),
        { signal },
      );
    },
  }),
  route({
    ...workflow,
    method: "GET",
    path: "/media/{jobId}/{file}",
    operation: "media.file",
    tag: "Projects",
    summary: "A rendered file of one of your jobs, with byte ranges",
    errors: { 404: "File not found" },
    handler: async (ctx, { params, request }) => {
      const file = await openJobMedia(ctx, params.jobId ?? "", params.file ?? "");
      return rangedFile(request, { ...file, read: (range) => ctx.services.media.read(file.key, range) });
    },
  }),
];

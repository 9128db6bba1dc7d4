// workflow.*: launching, following, reviewing and cancelling jobs, and the studio defaults.
import {
  BatchQuery,
  BatchStatus,
  CostEstimate,
  HitlDecision,
  IdempotencyKey,
  JobEventView,
  JobIdInput,
  JobView,
  LaunchOutcome,
  LaunchResponse,
  PagePreview,
  PagePreviewQuery,
  PreviewRequest,
  RatingResult,
  ReviewHistoryEntry,
  ReviewInput,
  ReviewState,
  StoryboardPreview,
  WorkerUpdate,
  WorkflowPrefs,
  WorkflowRequest,
} from "@adgen/schema";
import { z } from "zod";
import { getWorkflowPrefs, rateProject, reviewHistory, saveWorkflowPrefs } from "../modules/projects/projects.ts";
import { batchStatus } from "../modules/workflows/jobs/batch.ts";
import { cancelJob } from "../modules/workflows/jobs/cancel-job.ts";
import { decideHitl, getHitlState } from "../modules/workflows/jobs/hitl.ts";
import { openJobStream } from "../modules/workflows/jobs/job-stream.ts";
import { getJob } from "../modules/workflows/jobs/jobs.ts";
import { estimateWorkflow, launchWorkflow } from "../modules/workflows/launch/launch-workflow.ts";
import { previewPage } from "../modules/workflows/launch/preview-page.ts";
import { previewStoryboard } from "../modules/workflows/preview/preview-storyboard.ts";
import { postWorkerUpdate } from "../modules/workflows/jobs/worker-updates.ts";
import { readBearer } from "../modules/auth/authenticate.ts";
import { defineOperation, NoInput } from "./operation.ts";
import { actingAccount, actorOf, signedIn } from "./signed-in.ts";
import { auditSourceOf } from "../request-context.ts";

const user = { access: "user" } as const;
const tag = "Workflow";

const JobStreamInput = JobIdInput.extend({
  /** Resume after this event (SSE Last-Event-ID, tRPC's tracked id, GraphQL argument). */
  lastEventId: z.coerce.number({ error: "lastEventId must be an event id (a number)" }).int().nonnegative().optional(),
});

export const workflowOperations = {
  launch: defineOperation({
    ...user,
    summary:
      "Launch a workflow: charged once, queued (async) or awaited (async: false). Send an Idempotency-Key header to make retries safe.",
    kind: "mutation",
    input: WorkflowRequest.and(z.object({ idempotencyKey: IdempotencyKey })),
    output: LaunchOutcome,
    rest: {
      method: "POST",
      path: "/workflow",
      tag,
      headers: { idempotencyKey: "idempotency-key" },
      errors: {
        402: "Insufficient credits or trial expired",
        403: "Reserved workflow on this plan",
        404: "Brand or project not found (the brand or the ad-optimizer's project is not one of yours)",
        409: "Idempotency-Key reused with a different body",
      },
      // CONTRACT: both stated shapes at once.
      responds: {
        body: LaunchResponse,
        headers: { "Idempotent-Replayed": "`true` when an Idempotency-Key replayed an earlier launch (nothing was charged again)" },
      },
      respond: (outcome: LaunchOutcome) => {
        const { cost, message, replayed, ...data } = outcome;
        return { data, extra: { jobId: data.jobId, message, cost }, headers: replayed ? { "Idempotent-Replayed": "true" } : undefined };
      },
    },
    handler: async (ctx, { idempotencyKey, ...request }) => {
      const outcome = await launchWorkflow(ctx.services, signedIn(ctx), request, { idempotencyKey });
      return { ...outcome.data, cost: outcome.cost, message: outcome.message, replayed: outcome.replayed };
    },
  }),
  estimate: defineOperation({
    ...user,
    summary: "What a launch would cost and whether it would be accepted now (nothing is charged)",
    kind: "query",
    input: WorkflowRequest,
    output: CostEstimate,
    rest: { method: "POST", path: "/workflow/estimate", tag },
    handler: (ctx, input) => estimateWorkflow(ctx.services, signedIn(ctx), input),
  }),
  preview: defineOperation({
    ...user,
    summary:
      "Preview an ad for free: the storyboard a launch with this body would render, one still per scene in the first format, its creative score and the exact price. Send previewId with edits to change lines and preview again, or with the launch to render this storyboard",
    kind: "query",
    rateLimit: "preview",
    input: PreviewRequest,
    output: StoryboardPreview,
    rest: {
      method: "POST",
      path: "/workflow/preview",
      tag,
      errors: {
        403: "Reserved workflow on this plan",
        404: "Brand, project or preview not found",
      },
    },
    handler: (ctx, input) => previewStoryboard(ctx.services, signedIn(ctx), input),
  }),
  cancel: defineOperation({
    ...user,
    summary: "Cancel a job that has not finished; its credits are refunded",
    kind: "mutation",
    input: JobIdInput,
    output: JobView,
    rest: { method: "POST", path: "/workflow/cancel", tag, errors: { 404: "Job not found", 409: "Job already finished" } },
    handler: (ctx, input) => cancelJob(ctx.services, actingAccount(ctx), input.jobId),
  }),
  job: defineOperation({
    ...user,
    summary: "A job's current state",
    kind: "query",
    input: JobIdInput,
    output: JobView,
    rest: { method: "GET", path: "/workflow/job", tag, errors: { 404: "Job not found" } },
    handler: (ctx, input) => getJob(ctx.services, signedIn(ctx), input.jobId),
  }),
  stream: defineOperation({
    ...user,
    summary:
      "A job's events: the current state first (or what came after lastEventId), then live until it finishes; on SSE `step` events then one `result`, heartbeats every 15 s",
    kind: "subscription",
    input: JobStreamInput,
    output: JobEventView,
    rest: { method: "GET", path: "/workflow/stream", tag, headers: { lastEventId: "last-event-id" }, errors: { 404: "Job not found" } },
    handler: async (ctx, input, call) => {
      const { items } = await openJobStream(ctx.services, signedIn(ctx), input.jobId, {
        lastEventId: input.lastEventId ?? null,
        signal: call.signal,
      });
      return items;
    },
  }),
  workerUpdate: defineOperation({
    access: "worker",
    summary: "A worker reports progress (job owner, an admin, or the bearer WORKER_TOKEN)",
    kind: "mutation",
    input: WorkerUpdate,
    output: JobView,
    rest: { method: "POST", path: "/workflow/stream", tag, errors: { 404: "Job not found", 409: "Job already finished" } },
    handler: (ctx, input, call) =>
      postWorkerUpdate(ctx.services, ctx.auth ? actorOf(ctx) : null, input, { workerToken: readBearer(call.headers.get("authorization")) }),
  }),
  hitl: defineOperation({
    ...user,
    summary: "Review state of a job: storyboard, copy and a preview frame per scene",
    kind: "query",
    input: JobIdInput,
    output: ReviewState,
    rest: { method: "GET", path: "/workflow/hitl", tag, errors: { 404: "Job not found" } },
    handler: (ctx, input) => getHitlState(ctx.services, signedIn(ctx), input.jobId),
  }),
  hitlDecide: defineOperation({
    ...user,
    summary: "Approve (resumes rendering) or reject (fails and refunds) a job waiting for review",
    kind: "mutation",
    input: HitlDecision,
    output: ReviewState,
    rest: { method: "POST", path: "/workflow/hitl", tag, errors: { 404: "Job not found", 409: "Job is not waiting for review" } },
    handler: (ctx, input) => decideHitl(ctx.services, actingAccount(ctx), input),
  }),
  reviews: defineOperation({
    ...user,
    summary: "Ratings and review decisions of the account's projects",
    kind: "query",
    input: NoInput,
    output: z.array(ReviewHistoryEntry),
    rest: { method: "GET", path: "/workflow/review", tag },
    handler: (ctx) => reviewHistory(ctx.services, signedIn(ctx)),
  }),
  rate: defineOperation({
    ...user,
    summary: "Rate a project up or down with optional feedback",
    kind: "mutation",
    input: ReviewInput,
    output: RatingResult,
    rest: { method: "POST", path: "/workflow/review", tag, errors: { 404: "Project not found" } },
    handler: (ctx, input) => rateProject(ctx.services, signedIn(ctx), auditSourceOf(ctx), input),
  }),
  prefs: defineOperation({
    ...user,
    summary: "Studio defaults",
    kind: "query",
    input: NoInput,
    output: WorkflowPrefs,
    rest: { method: "GET", path: "/workflow/prefs", tag },
    handler: (ctx) => getWorkflowPrefs(ctx.services, signedIn(ctx)),
  }),
  savePrefs: defineOperation({
    ...user,
    summary: "Save studio defaults (merged)",
    kind: "mutation",
    input: WorkflowPrefs,
    output: WorkflowPrefs,
    rest: { method: "POST", path: "/workflow/prefs", tag },
    handler: (ctx, input) => saveWorkflowPrefs(ctx.services, signedIn(ctx), input),
  }),
  batchStatus: defineOperation({
    ...user,
    summary: "A factory batch: counts of renders and per-render progress",
    kind: "query",
    input: BatchQuery,
    output: BatchStatus,
    rest: { method: "GET", path: "/batch/status", tag, errors: { 404: "Batch not found" } },
    handler: (ctx, input) => batchStatus(ctx.services, signedIn(ctx), input),
  }),
  previewPage: defineOperation({
    ...user,
    summary: "What the studio can read from a page before launching: title, description, images and colours (nothing is charged)",
    kind: "query",
    input: PagePreviewQuery,
    output: PagePreview,
    rest: { method: "GET", path: "/workflow/preview", tag, errors: { 400: "Not an http(s) URL, or a private address" } },
    handler: (ctx, input) => previewPage(ctx.services, input.url),
  }),
};

import type { JobEventView, JobView, Project, WorkflowRequestInput } from "@adgen/schema";
import { listProjects, rateProject } from "../../modules/projects/projects.ts";
import { cancelJob } from "../../modules/workflows/cancel-job.ts";
import { decideHitl, getHitlState } from "../../modules/workflows/hitl.ts";
import { openJobStream, watchAccountJobEvents } from "../../modules/workflows/job-stream.ts";
import { getJob } from "../../modules/workflows/jobs.ts";
import { estimateWorkflow, launchWorkflow, type LaunchOutcome } from "../../modules/workflows/launch-workflow.ts";
import { builder, QualityTierEnum, WorkflowTypeEnum } from "../builder.ts";

const JobStatusEnum = builder.enumType("JobStatus", {
  values: ["queued", "processing", "awaiting_review", "completed", "failed"] as const,
});

const AssetRef = builder.objectRef<NonNullable<JobView["result"]>["assets"][number]>("OutputAsset").implement({
  fields: (t) => ({
    url: t.exposeString("url"),
    type: t.exposeString("type"),
    format: t.exposeString("format"),
    duration: t.exposeFloat("duration"),
    platform: t.exposeString("platform"),
    width: t.exposeInt("width", { nullable: true }),
    height: t.exposeInt("height", { nullable: true }),
    thumbnail: t.exposeString("thumbnail", { nullable: true }),
  }),
});

const ResultRef = builder.objectRef<NonNullable<JobView["result"]>>("WorkflowResult").implement({
  fields: (t) => ({
    finalVideo: t.exposeString("finalVideo", { nullable: true }),
    thumbnail: t.exposeString("thumbnail", { nullable: true }),
    assets: t.field({ type: [AssetRef], resolve: (r) => r.assets }),
    warnings: t.stringList({ resolve: (r) => r.warnings ?? [] }),
    storyboard: t.field({ type: "JSON", nullable: true, resolve: (r) => r.storyboard ?? null }),
  }),
});

export const JobRef = builder.objectRef<JobView>("Job").implement({
  fields: (t) => ({
    id: t.exposeID("jobId"),
    type: t.exposeString("type"),
    quality: t.field({ type: QualityTierEnum, resolve: (j) => j.quality }),
    status: t.field({ type: JobStatusEnum, resolve: (j) => j.status }),
    step: t.exposeString("step", { nullable: true }),
    progress: t.exposeInt("progress"),
    creditsUsed: t.exposeInt("creditsUsed"),
    refunded: t.exposeBoolean("refunded"),
    result: t.field({ type: ResultRef, nullable: true, resolve: (j) => j.result }),
    error: t.exposeString("error", { nullable: true }),
    hitl: t.exposeBoolean("hitl"),
    batchId: t.exposeString("batchId", { nullable: true }),
    createdAt: t.field({ type: "DateTime", resolve: (j) => j.createdAt }),
    updatedAt: t.field({ type: "DateTime", resolve: (j) => j.updatedAt }),
  }),
});

const JobEventRef = builder.objectRef<JobEventView>("JobEvent").implement({
  description: "One event of a job (SPEC 6.1 kinds, or workflow.state for the current state on join).",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "Position in the job's event log" }),
    jobId: t.exposeID("jobId"),
    type: t.exposeString("type"),
    step: t.exposeString("step", { nullable: true }),
    status: t.exposeString("status"),
    progress: t.exposeInt("progress"),
    result: t.field({ type: "JSON", nullable: true, resolve: (e) => e.result ?? null }),
    videoUrl: t.string({ nullable: true, resolve: (e) => e.videoUrl ?? null }),
    duration: t.float({ nullable: true, resolve: (e) => e.duration ?? null }),
    error: t.string({ nullable: true, resolve: (e) => e.error ?? null }),
    at: t.field({ type: "DateTime", resolve: (e) => e.at }),
  }),
});

const ProjectRef = builder.objectRef<Project>("Project").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    type: t.exposeString("type"),
    status: t.exposeString("status"),
    jobStatus: t.exposeString("job_status"),
    inputData: t.exposeString("input_data"),
    outputData: t.exposeString("output_data"),
    creditsUsed: t.exposeInt("credits_used"),
    createdAt: t.field({ type: "DateTime", resolve: (p) => p.created_at }),
    thumbnail: t.exposeString("thumbnail", { nullable: true }),
    rating: t.exposeString("rating", { nullable: true }),
  }),
});

const LaunchRef = builder.objectRef<LaunchOutcome>("LaunchResult").implement({
  fields: (t) => ({
    jobId: t.id({ resolve: (o) => o.data.jobId }),
    status: t.field({ type: JobStatusEnum, resolve: (o) => o.data.status }),
    creditsUsed: t.int({ resolve: (o) => o.data.creditsUsed }),
    cost: t.exposeInt("cost"),
    message: t.exposeString("message"),
    replayed: t.exposeBoolean("replayed"),
    batchId: t.string({ nullable: true, resolve: (o) => o.data.batchId ?? null }),
    result: t.field({ type: ResultRef, nullable: true, resolve: (o) => o.data.result ?? null }),
  }),
});

const EstimateRef = builder.objectRef<Awaited<ReturnType<typeof estimateWorkflow>>>("CostEstimate").implement({
  fields: (t) => ({
    cost: t.exposeInt("cost"),
    balance: t.exposeInt("balance"),
    sufficient: t.exposeBoolean("sufficient"),
    blockedBy: t.exposeString("blockedBy", { nullable: true }),
    message: t.exposeString("message", { nullable: true }),
    formats: t.exposeStringList("formats"),
  }),
});

const WorkflowInput = builder.inputType("WorkflowInput", {
  description: "SPEC 2.2 workflow request; validated by the same rules as REST.",
  fields: (t) => ({
    type: t.field({ type: WorkflowTypeEnum, required: true }),
    url: t.string(),
    concept: t.string(),
    brand: t.string(),
    models: t.field({ type: "JSON" }),
    formats: t.stringList({ description: "16:9, 9:16, 1:1, 4:5" }),
    quality: t.field({ type: QualityTierEnum }),
    async: t.boolean(),
    hitl: t.boolean(),
    framework: t.string(),
    seasonal: t.string(),
    adPreset: t.string(),
    imagesOnly: t.boolean(),
    publish: t.boolean(),
    callbackUrl: t.string(),
  }),
});

/** GraphQL nulls mean "not given". */
function toRequest(input: Record<string, unknown>): WorkflowRequestInput {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined)) as unknown as WorkflowRequestInput;
}

builder.queryFields((t) => ({
  job: t.field({ type: JobRef, args: { id: t.arg.id({ required: true }) }, resolve: (_, { id }, ctx) => getJob(ctx, String(id)) }),
  projects: t.field({ type: [ProjectRef], resolve: (_, __, ctx) => listProjects(ctx) }),
  estimateWorkflow: t.field({
    type: EstimateRef,
    args: { input: t.arg({ type: WorkflowInput, required: true }) },
    resolve: (_, { input }, ctx) => estimateWorkflow(ctx, toRequest(input)),
  }),
  review: t.field({
    type: "JSON",
    args: { jobId: t.arg.id({ required: true }) },
    resolve: (_, { jobId }, ctx) => getHitlState(ctx, String(jobId)),
  }),
}));

builder.mutationFields((t) => ({
  launchWorkflow: t.field({
    type: LaunchRef,
    args: { input: t.arg({ type: WorkflowInput, required: true }), idempotencyKey: t.arg.string() },
    resolve: (_, { input, idempotencyKey }, ctx) => launchWorkflow(ctx, toRequest(input), { idempotencyKey }),
  }),
  cancelJob: t.field({ type: JobRef, args: { id: t.arg.id({ required: true }) }, resolve: (_, { id }, ctx) => cancelJob(ctx, String(id)) }),
  decideReview: t.field({
    type: "JSON",
    args: { jobId: t.arg.id({ required: true }), action: t.arg.string({ required: true }), feedback: t.arg.string() },
    resolve: (_, { jobId, action, feedback }, ctx) =>
      decideHitl(ctx, { jobId: String(jobId), action: action as "approve" | "reject", feedback: feedback ?? undefined }),
  }),
  rateProject: t.field({
    type: "JSON",
    args: { projectId: t.arg.id({ required: true }), rating: t.arg.string({ required: true }), feedback: t.arg.string() },
    resolve: (_, { projectId, rating, feedback }, ctx) =>
      rateProject(ctx, { projectId: String(projectId), rating: rating as "up" | "down", feedback: feedback ?? undefined }),
  }),
}));

builder.subscriptionFields((t) => ({
  jobEvents: t.field({
    type: JobEventRef,
    description: "A job's events: its current state first (or what came after `lastEventId`), then live until it finishes.",
    args: { jobId: t.arg.id({ required: true }), lastEventId: t.arg.int() },
    subscribe: async function* (_, { jobId, lastEventId }, ctx) {
      const { items } = await openJobStream(ctx, String(jobId), { lastEventId: lastEventId ?? null });
      for await (const item of items) yield item.data;
    },
    resolve: (event) => event as JobEventView,
  }),
  accountEvents: t.field({
    type: JobEventRef,
    description: "Every job event of your account (of all accounts for an admin).",
    subscribe: (_, __, ctx) => watchAccountJobEvents(ctx),
    resolve: (event) => event as JobEventView,
  }),
}));

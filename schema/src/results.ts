// Answers of the review, rating, batch, insight, webhook and export operations: typed, so GraphQL
// partners get object types and OpenAPI documents them.
import { z } from "zod";
import { IsoDateTime } from "./common.ts";
import { CreativeScore } from "./creative.ts";
import { JobStatus } from "./enums.ts";
import { BriefReading, JobView } from "./workflow.ts";

export const ReviewScene = z
  .object({
    id: z.string(),
    durationSec: z.number(),
    headline: z.string(),
    body: z.string().optional(),
    cta: z.string().optional(),
    background: z.string(),
    accent: z.string(),
    transition: z.string(),
    /** A still of the scene as it will render. */
    preview: z.string().nullable(),
    /** Problem or solution (the problem-solution style only). */
    tone: z.enum(["problem", "solution"]).optional(),
    /** How the picture moves (absent: it holds still). */
    motion: z.enum(["push-in", "pull-out", "pan-left", "pan-right", "pan-up", "pan-down", "static"]).optional(),
    /** How the text arrives (absent: it is simply there). */
    textMotion: z.enum(["rise", "slide", "fade", "none"]).optional(),
  })
  .meta({ title: "ReviewScene" });

export const ReviewState = z
  .object({
    jobId: z.string(),
    status: JobStatus,
    hitl: z.boolean(),
    review: z.object({
      state: z.string().describe("pending, approved, rejected, expired, not_reached or not_requested"),
      requestedAt: IsoDateTime.nullable(),
      expiresAt: IsoDateTime.nullable(),
      decidedAt: IsoDateTime.nullable(),
      feedback: z.string().nullable(),
    }),
    storyboard: z
      .object({
        title: z.string(),
        framework: z.string().nullable().optional(),
        formats: z.array(z.string()),
        /** The brand style the art direction chose: name and colours (`#rrggbb`). */
        brand: z
          .object({ name: z.string(), primary: z.string(), secondary: z.string(), accent: z.string(), text: z.string() })
          .meta({ title: "BrandStyle" }),
        scenes: z.array(ReviewScene),
        creativeScore: CreativeScore.nullable(),
        /** How each sentence of the brief was read: why a line appears on screen or does not. */
        briefReading: BriefReading.optional(),
      })
      .nullable(),
    job: JobView,
  })
  .meta({ title: "ReviewState" });

export const RatingResult = z
  .object({
    projectId: z.string(),
    rating: z.enum(["up", "down"]).nullable(),
    feedback: z.string().nullable(),
    ratedAt: IsoDateTime.nullable(),
  })
  .meta({ title: "Rating" });

export const ReviewHistoryEntry = z
  .object({
    projectId: z.string(),
    type: z.string(),
    status: JobStatus,
    rating: z.enum(["up", "down"]).nullable(),
    feedback: z.string().nullable(),
    ratedAt: IsoDateTime.nullable(),
    review: z.object({ decision: z.string(), feedback: z.string().nullable(), decidedAt: IsoDateTime.nullable() }).nullable(),
  })
  .meta({ title: "ReviewHistoryEntry" });

export const BatchStatus = z
  .object({
    batchId: z.string(),
    status: z.enum(["processing", "completed", "failed"]),
    total: z.number().int(),
    completed: z.number().int(),
    failed: z.number().int(),
    pending: z.number().int(),
    active: z.number().int(),
    jobs: z.array(
      z.object({
        id: z.string(),
        jobId: z.string(),
        format: z.string(),
        status: z.enum(["pending", "active", "completed", "failed"]),
        progress: z.number().int(),
      }),
    ),
  })
  .meta({ title: "BatchStatus" });

export const UserStats = z
  .object({
    startDate: z.string().nullable(),
    endDate: z.string().nullable(),
    totalProjects: z.number().int(),
    /** Workflow type → its projects, completed, failed and credits. */
    projectsByType: z.record(
      z.string(),
      z.object({ total: z.number().int(), completed: z.number().int(), failed: z.number().int(), credits: z.number().int() }),
    ),
    creditsUsed: z.number().int(),
    creditsCharged: z.number().int(),
    creditsRefunded: z.number().int(),
    completed: z.number().int(),
    failed: z.number().int(),
    inProgress: z.number().int(),
    successRate: z.number().nullable(),
  })
  .meta({ title: "UserStats" });

export const UserAnalytics = z
  .object({
    period: z.enum(["7d", "30d", "90d"]),
    since: IsoDateTime,
    trends: z.array(z.object({ date: z.string(), projects: z.number().int(), completed: z.number().int(), credits: z.number().int() })),
    /** Workflow type → projects. */
    usageByType: z.record(z.string(), z.number().int()),
    /** Ledger reason → credits (signed). */
    creditDistribution: z.record(z.string(), z.number().int()),
    peakHours: z.array(z.object({ hour: z.number().int(), projects: z.number().int() })),
    hourly: z.array(z.object({ hour: z.number().int(), projects: z.number().int() })),
  })
  .meta({ title: "UserAnalytics" });

export const WebhookSettingsInput = z.object({
  url: z.string().trim().max(2048, { error: "url must be at most 2048 characters" }).nullable().optional(),
  rotateSecret: z.boolean({ error: "rotateSecret must be true or false" }).optional(),
});

export const WebhookSettings = z
  .object({
    url: z.string().nullable(),
    secret: z.string(),
    signature: z.string(),
    recentDeliveries: z.array(
      z.object({
        id: z.string(),
        jobId: z.string().nullable(),
        eventKind: z.string(),
        url: z.string(),
        status: z.string(),
        attempts: z.number().int(),
        lastStatus: z.number().int().nullable(),
        lastError: z.string().nullable(),
        createdAt: IsoDateTime,
        deliveredAt: IsoDateTime.nullable(),
      }),
    ),
  })
  .meta({ title: "WebhookSettings" });

export const ExportStatus = z
  .object({
    exportId: z.string(),
    status: z.string(),
    bytes: z.number().int().nullable(),
    error: z.string().nullable(),
    createdAt: IsoDateTime,
    completedAt: IsoDateTime.nullable(),
    downloadUrl: z.string().nullable(),
  })
  .meta({ title: "ExportStatus" });

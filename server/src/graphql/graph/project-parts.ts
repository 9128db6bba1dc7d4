// The parts of a project that are not rows of their own: its files, its review and a day of its performance.
import type { Job } from "@adgen/prisma";
import type { ProjectDay } from "../../modules/analytics/project-days.ts";
import type { Builder } from "../builder.ts";

interface Asset {
  url: string;
  type: string;
  format: string;
  duration: number;
}

interface Review {
  hitl: boolean;
  requestedAt: Date | null;
  decision: string | null;
  feedback: string | null;
  decidedAt: Date | null;
  rating: string | null;
  ratingFeedback: string | null;
}

const iso = (when: Date | null) => when?.toISOString() ?? null;

export function addProjectParts(builder: Builder) {
  const asset = builder.objectRef<Asset>("ProjectAsset").implement({
    description: "A file a project made: a video, image, voice-over, captions or report.",
    fields: (t) => ({
      url: t.exposeString("url", { description: "Where to fetch it (relative to the service)." }),
      type: t.exposeString("type", { description: "video, image, audio, document or captions." }),
      format: t.exposeString("format", { description: "Its aspect ratio (9:16, 1:1, 16:9), or a document's file format." }),
      duration: t.exposeFloat("duration", { description: "Its length in seconds (0 for a still or document)." }),
    }),
  });
  const review = builder.objectRef<Review>("ProjectReview").implement({
    description: "A project's review before rendering (when it asked for one) and its owner's rating of the result.",
    fields: (t) => ({
      hitl: t.exposeBoolean("hitl", { description: "Whether it paused for a person's review before rendering." }),
      requestedAt: t.string({ nullable: true, description: "When it asked for review.", resolve: (r) => iso(r.requestedAt) }),
      decision: t.exposeString("decision", { nullable: true, description: "approved, rejected or expired; null while pending." }),
      feedback: t.exposeString("feedback", { nullable: true, description: "What the reviewer wrote." }),
      decidedAt: t.string({ nullable: true, description: "When the review was decided.", resolve: (r) => iso(r.decidedAt) }),
      rating: t.exposeString("rating", { nullable: true, description: "The owner's rating of the result: up or down." }),
      ratingFeedback: t.exposeString("ratingFeedback", { nullable: true, description: "What the owner wrote with the rating." }),
    }),
  });
  const day = builder.objectRef<ProjectDay>("ProjectDay").implement({
    description: "One day of a project's performance: its creatives' figures summed.",
    fields: (t) => ({
      day: t.exposeString("day", { description: "The day (YYYY-MM-DD, UTC)." }),
      impressions: t.exposeFloat("impressions", { description: "Times shown." }),
      clicks: t.exposeFloat("clicks", { description: "Clicks." }),
      conversions: t.exposeFloat("conversions", { description: "Conversions." }),
      spendCents: t.exposeFloat("spendCents", { description: "Spend, in cents." }),
      revenueCents: t.exposeFloat("revenueCents", { description: "Revenue, in cents." }),
    }),
  });
  return {
    asset,
    review,
    day,
    assetsOf(result: unknown): Asset[] {
      const assets = (result as { assets?: unknown } | null)?.assets;
      return Array.isArray(assets) ? (assets as Asset[]) : [];
    },
    reviewOf(job: Job): Review | null {
      if (!job.hitl && !job.reviewRequestedAt && !job.rating) return null;
      return {
        hitl: job.hitl,
        requestedAt: job.reviewRequestedAt,
        decision: job.reviewDecision,
        feedback: job.reviewFeedback,
        decidedAt: job.reviewedAt,
        rating: job.rating,
        ratingFeedback: job.ratingFeedback,
      };
    },
    brandOf(input: unknown): string | null {
      const brand = (input as { brand?: unknown } | null)?.brand;
      return typeof brand === "string" ? brand : null;
    },
  };
}

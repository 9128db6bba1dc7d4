// The enumerations of SPEC 2.1–2.2 and CONTRACT. Every transport and the SPA import these.
import { z } from "zod";

export const ROLES = ["user", "admin"] as const;
export const Role = z.enum(ROLES).meta({ title: "Role" });
export type Role = z.infer<typeof Role>;

export const ACCOUNT_STATUSES = ["active", "suspended"] as const;
export const AccountStatus = z.enum(ACCOUNT_STATUSES).meta({ title: "AccountStatus" });
export type AccountStatus = z.infer<typeof AccountStatus>;

export const PLAN_IDS = [
  "free",
  "trial",
  "subscription_starter",
  "subscription_pro",
  "subscription_agency",
  "subscription_enterprise",
  "pack_10",
  "pack_25",
  "pack_50",
  "pack_100",
] as const;
export const PlanId = z.enum(PLAN_IDS).meta({ title: "PlanId" });
export type PlanId = z.infer<typeof PlanId>;

export const PROVIDER_PREFERENCES = ["auto", "fal", "replicate"] as const;
export const ProviderPreference = z.enum(PROVIDER_PREFERENCES).meta({ title: "ProviderPreference" });
export type ProviderPreference = z.infer<typeof ProviderPreference>;

export const QUALITY_TIERS = ["standard", "premium"] as const;
export const QualityTier = z.enum(QUALITY_TIERS).meta({ title: "QualityTier" });
export type QualityTier = z.infer<typeof QualityTier>;

export const WORKFLOW_TYPES = [
  "cinematic",
  "avatar",
  "factory",
  "clone",
  "influencer",
  "brand",
  "staticad",
  "painpoint",
  "ad-optimizer",
  "local-audit",
] as const;
export const WorkflowType = z.enum(WORKFLOW_TYPES).meta({ title: "WorkflowType" });
export type WorkflowType = z.infer<typeof WorkflowType>;

export const JOB_STATUSES = ["queued", "processing", "awaiting_review", "completed", "failed"] as const;
export const JobStatus = z.enum(JOB_STATUSES).meta({ title: "JobStatus" });
export type JobStatus = z.infer<typeof JobStatus>;

export const PROJECT_STATUSES = ["pending", "processing", "completed", "failed"] as const;
export const ProjectStatus = z.enum(PROJECT_STATUSES).meta({ title: "ProjectStatus" });
export type ProjectStatus = z.infer<typeof ProjectStatus>;

export const ASPECT_RATIOS = ["16:9", "9:16", "1:1", "4:5"] as const;
export const AspectRatio = z.enum(ASPECT_RATIOS).meta({ title: "AspectRatio" });
export type AspectRatio = z.infer<typeof AspectRatio>;

export const FRAMEWORKS = ["pas", "aida", "sb7", "cialdini", "uvp", "bant"] as const;
export const Framework = z.enum(FRAMEWORKS).meta({ title: "Framework" });

export const SEASONALS = ["ramadan", "eid"] as const;
export const Seasonal = z.enum(SEASONALS).meta({ title: "Seasonal" });

export const EVENT_KINDS = [
  "workflow.started",
  "workflow.step",
  "workflow.completed",
  "workflow.failed",
  "video.ready",
  "workflow.suspended",
] as const;
export const EventKind = z.enum(EVENT_KINDS).meta({ title: "EventKind" });
export type EventKind = z.infer<typeof EventKind>;

/** Plans that may hold an API key (CONTRACT). */
export const API_KEY_PLANS = ["subscription_agency", "subscription_enterprise"] as const satisfies readonly PlanId[];
/** Plans on which the reserved workflow types answer 403 (CONTRACT). */
export const RESERVED_WORKFLOW_PLANS = ["free", "trial"] as const satisfies readonly PlanId[];
export const RESERVED_WORKFLOW_TYPES = ["brand", "influencer"] as const satisfies readonly WorkflowType[];

import { z } from "zod";
import { Email, EmailAddress, IsoDateTime } from "./common.ts";
import { AspectRatio, PlanId, QualityTier, WorkflowType } from "./enums.ts";

export const ContactInput = z.object({
  email: Email,
  name: z.string().trim().max(200, { error: "name must be at most 200 characters" }).optional(),
  message: z
    .string({ error: "message is required" })
    .trim()
    .min(1, { error: "message is required" })
    .max(2000, { error: "message must be at most 2000 characters" }),
});
export type ContactInput = z.infer<typeof ContactInput>;
export const ContactResult = z.object({ id: z.string(), received: z.literal(true) });

export const NewsletterInput = z.object({ email: Email });
export type NewsletterInput = z.infer<typeof NewsletterInput>;
export const NewsletterResult = z.object({ email: EmailAddress, subscribed: z.literal(true), alreadySubscribed: z.boolean() });

export const Health = z.object({ status: z.string(), timestamp: IsoDateTime, version: z.string() });
export const DbHealth = z.object({
  status: z.enum(["ok", "error"]),
  engine: z.enum(["pglite", "postgres"]),
  responseTimeMs: z.number(),
  timestamp: IsoDateTime,
});
export const SignupTestStep = z.object({ step: z.string(), ok: z.boolean(), ms: z.number(), error: z.string().optional() });
export const SignupTestResult = z.object({ success: z.boolean(), totalMs: z.number(), steps: z.array(SignupTestStep) });

export const WorkflowPrice = z.object({
  type: WorkflowType,
  name: z.string(),
  standard: z.number().int(),
  premium: z.number().int(),
  reservedOnPlans: z.array(PlanId),
});
const ConcurrentJobs = z
  .number()
  .int()
  .positive()
  .describe("jobs of one account that run at once; the account's further jobs wait, in order, for one of them to finish");
export const CreditPack = z.object({
  id: z.string(),
  credits: z.number().int(),
  price: z.number(),
  currency: z.string(),
  concurrentJobs: ConcurrentJobs,
});
export type CreditPack = z.infer<typeof CreditPack>;
export const PlanPrice = z.object({
  id: PlanId,
  name: z.string(),
  monthly: z.number(),
  yearly: z.number(),
  currency: z.string(),
  monthlyCredits: z.number().int(),
  concurrentJobs: ConcurrentJobs,
  apiAccess: z.boolean(),
  reservedWorkflows: z.boolean().describe("true when brand and influencer are not available on this plan"),
});
/** What each quality tier buys, in words (the premium price is charged only for what it changes). */
export const QualityTierInfo = z.object({
  id: QualityTier,
  name: z.string(),
  description: z.string(),
  /** What the tier buys a video job, in one line ("1080p at 60 fps, smoother motion, and one more cut per format (a second hook)"). */
  summary: z.string(),
  /** What the tier buys an image-only job, in one line ("one more still per format …"). */
  imageSummary: z.string(),
});
export const Pricing = z.object({
  currency: z.string(),
  workflows: z.array(WorkflowPrice),
  qualityTiers: z.array(QualityTierInfo),
  packs: z.array(CreditPack),
  plans: z.array(PlanPrice),
  trial: z.object({ days: z.number().int(), credits: z.number().int() }),
  reservedWorkflows: z.object({ types: z.array(WorkflowType), plans: z.array(PlanId), rule: z.string() }),
  /** How packs and plans are bought here (modules/billing): the provider, the built-in sandbox, or not at all. */
  checkout: z.object({
    mode: z.enum(["stripe", "sandbox", "unavailable"]),
    intervals: z.array(z.enum(["monthly", "yearly"])),
    /** Plans that can be bought with POST /api/checkout/stripe. */
    plans: z.array(PlanId),
  }),
});
export type Pricing = z.infer<typeof Pricing>;

export const StudioModel = z.object({
  id: z.string(),
  name: z.string(),
  /** The quality tiers this model renders. */
  tiers: z.array(QualityTier),
  /** The model a job uses when the launch names none. */
  default: z.boolean(),
});
export type StudioModel = z.infer<typeof StudioModel>;
export const StudioConfig = z.object({
  workflowTypes: z.array(z.object({ type: WorkflowType, name: z.string(), description: z.string(), requiresUrl: z.boolean() })),
  formats: z.array(z.object({ ratio: AspectRatio, width: z.number().int(), height: z.number().int(), platforms: z.array(z.string()) })),
  qualityTiers: z.array(QualityTier),
  frameworks: z.array(z.string()),
  seasonal: z.array(z.string()),
  adPresets: z.array(z.object({ id: z.string(), name: z.string() })),
  /** The models this instance can run now, by kind; a launch's `models.image|video|voice` must name one of them. */
  models: z.object({
    image: z.array(StudioModel),
    video: z.array(StudioModel),
    voice: z.array(StudioModel),
  }),
  limits: z.object({ conceptMaxLength: z.number().int(), hitlTimeoutSeconds: z.number().int() }),
});
export type StudioConfig = z.infer<typeof StudioConfig>;

export const Capability = z.object({
  name: z.string(),
  category: z.string(),
  tier: z.string(),
  /** active: a job can use it on this instance now; deprecated: on its way out. What this instance cannot use is not listed (SPEC 2.7). */
  status: z.enum(["active", "deprecated"]),
  isNew: z.boolean(),
  features: z.array(z.string()),
});
export type Capability = z.infer<typeof Capability>;
export const ModelsStatus = z.object({
  capabilities: z.array(Capability),
  recentUpgrades: z.array(z.object({ name: z.string(), category: z.string(), date: z.string(), note: z.string() })),
  stats: z.object({ totalCapabilities: z.number().int(), recentlyUpdated: z.number().int(), categories: z.number().int() }),
});
export type ModelsStatus = z.infer<typeof ModelsStatus>;

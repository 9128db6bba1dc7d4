// The admin console (SPEC 4.12): stats, funnel, revenue, leads, agents, settings, system, health, activity,
// marketing and the integrity report. Shapes SPEC leaves open ("not shown") are closed here.
import { z } from "zod";
import { AuditEntry } from "./admin.ts";
import { EmailAddress, IsoDateTime } from "./common.ts";
import { ACCOUNT_STATUSES, JOB_STATUSES, PLAN_IDS, WORKFLOW_TYPES } from "./enums.ts";

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const dayOrDateTime = (field: string) =>
  z
    .string()
    .trim()
    .refine((value) => (DAY.test(value) || /^\d{4}-\d{2}-\d{2}T/.test(value)) && !Number.isNaN(Date.parse(value)), {
      error: `${field} must be a date (YYYY-MM-DD) or an ISO date-time`,
    });

/** A period: `from` and `to` (inclusive days); the last 30 days when absent. At most 366 days. */
export const AdminPeriodQuery = z.object({
  from: dayOrDateTime("from").optional().describe("first day (YYYY-MM-DD) or instant; default 30 days before `to`"),
  to: dayOrDateTime("to").optional().describe("last day (YYYY-MM-DD, inclusive) or instant; default now"),
});
export type AdminPeriodQuery = z.infer<typeof AdminPeriodQuery>;

export const AdminPeriod = z.object({ from: IsoDateTime, to: IsoDateTime });

const Counts = z.record(z.string(), z.number().int());
/** A count for each of `keys` (0 when none), typed field by field. */
const countsOf = <K extends string>(keys: readonly K[]) =>
  z.object(Object.fromEntries(keys.map((key) => [key, z.number().int()])) as Record<K, z.ZodNumber>);
export const QUEUE_STATES = ["created", "retry", "active", "completed", "cancelled", "failed"] as const;

export const AdminStats = z.object({
  period: AdminPeriod,
  users: z.object({
    total: z.number().int(),
    newInPeriod: z.number().int(),
    byPlan: countsOf(PLAN_IDS),
    byStatus: countsOf(ACCOUNT_STATUSES),
  }),
  jobs: z.object({
    /** Jobs launched in the period. */
    total: z.number().int(),
    byType: countsOf(WORKFLOW_TYPES),
    byStatus: countsOf(JOB_STATUSES),
  }),
  credits: z.object({
    /** Credits added in the period: signup grants, purchases, plan allowances and positive admin adjustments. */
    granted: z.number().int(),
    /** Charged by workflow launches in the period. */
    charged: z.number().int(),
    /** Given back for failed or expired jobs in the period. */
    refunded: z.number().int(),
    /** charged − refunded. */
    used: z.number().int(),
    /** The net change of each ledger reason in the period. */
    byReason: Counts,
  }),
  /** Credits used per day of the period (for the chart). */
  daily: z.array(z.object({ day: z.string(), jobs: z.number().int(), creditsUsed: z.number().int(), signups: z.number().int() })),
});
export type AdminStats = z.infer<typeof AdminStats>;

export const FUNNEL_STAGES = ["signup", "login", "studio", "generate", "purchase"] as const;
export const FunnelStageName = z.enum(FUNNEL_STAGES);

export const AdminFunnel = z.object({
  period: AdminPeriod,
  stages: z.array(
    z.object({
      stage: FunnelStageName,
      /** What the stage counts, in words. */
      definition: z.string(),
      /** Accounts of the period's signups that reached this stage (or a later one). */
      count: z.number().int(),
      /** Percent of the previous stage's count (one decimal); null for the first stage or after an empty one. */
      conversionFromPrevious: z.number().nullable(),
      /** Percent of the signups (one decimal); null when nobody signed up. */
      conversionFromStart: z.number().nullable(),
    }),
  ),
});
export type AdminFunnel = z.infer<typeof AdminFunnel>;

export const REVENUE_INTERVALS = ["day", "week", "month"] as const;
export const AdminRevenueQuery = AdminPeriodQuery.extend({
  interval: z.enum(REVENUE_INTERVALS, { error: "interval must be day, week or month" }).default("day"),
});
export type AdminRevenueQuery = z.infer<typeof AdminRevenueQuery>;

const Money = z.object({ key: z.string(), amountCents: z.number().int(), orders: z.number().int() });
export const AdminRevenue = z.object({
  period: AdminPeriod,
  interval: z.enum(REVENUE_INTERVALS),
  /** The currency of most of the period's revenue; `byCurrency` splits the totals when there are several. */
  currency: z.string(),
  /** Paid orders in the period (by payment time), refunded ones included. */
  totalCents: z.number().int(),
  orders: z.number().int(),
  /** Of `totalCents`, what was refunded since (orders now `refunded`). */
  refundedCents: z.number().int(),
  byCurrency: z.array(Money),
  byProvider: z.array(Money),
  byPlan: z.array(Money),
  byPack: z.array(Money),
  series: z.array(z.object({ bucket: z.string(), amountCents: z.number().int(), orders: z.number().int() })),
  /** Credits the period's paid orders granted, and what the period's jobs cost at the providers (US cents, estimated at launch). */
  providerCost: z.object({ creditsSold: z.number().int(), costCents: z.number(), jobs: z.number().int() }),
});
export type AdminRevenue = z.infer<typeof AdminRevenue>;

// ---- Leads ----

export const LEAD_SOURCES = ["manual", "signup", "contact", "newsletter"] as const;
export const LeadInput = z.object({
  email: z
    .string({ error: "email is required" })
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: "email must be an e-mail address" }).max(254, { error: "email must be at most 254 characters" })),
  name: z.string().trim().max(200, { error: "name must be at most 200 characters" }).optional(),
  company: z.string().trim().max(200, { error: "company must be at most 200 characters" }).optional(),
  note: z.string().trim().max(2000, { error: "note must be at most 2000 characters" }).optional(),
  source: z.enum(LEAD_SOURCES, { error: `source must be one of ${LEAD_SOURCES.join(", ")}` }).default("manual"),
});
export type LeadInput = z.infer<typeof LeadInput>;

export const Lead = z.object({
  id: z.string(),
  email: EmailAddress,
  name: z.string().nullable(),
  company: z.string().nullable(),
  note: z.string().nullable(),
  source: z.string(),
  createdAt: IsoDateTime,
});
export type Lead = z.infer<typeof Lead>;

export const LeadAddResult = z.object({
  lead: Lead,
  /** false when a lead with this e-mail existed: nothing was added (empty fields were filled in). */
  created: z.boolean(),
});

export const LeadListQuery = z.object({
  page: z.coerce.number().int().min(1, { error: "page must be 1 or more" }).default(1),
  pageSize: z.coerce.number().int().min(1).max(100, { error: "pageSize must be between 1 and 100" }).default(25),
  search: z.string().trim().max(254).optional().describe("part of the e-mail, name or company"),
});
export const LeadList = z.object({
  leads: z.array(Lead),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  totalPages: z.number().int(),
});
export type LeadList = z.infer<typeof LeadList>;

// ---- Agents ----

export const AGENT_IDS = ["review-expiry", "orphaned-jobs", "webhook-retries", "performance-decay"] as const;
export const AgentStatus = z.enum(["idle", "running", "ok", "error"]);
export const Agent = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  everySeconds: z.number().int(),
  status: AgentStatus,
  lastRunAt: IsoDateTime.nullable(),
  lastFinishedAt: IsoDateTime.nullable(),
  lastDurationMs: z.number().int().nullable(),
  nextRunAt: IsoDateTime.nullable(),
  lastError: z.string().nullable(),
  lastResult: z.record(z.string(), z.unknown()).nullable(),
  runs: z.number().int(),
  trigger: z.string().nullable(),
});
export type Agent = z.infer<typeof Agent>;
export const AgentList = z.object({ agents: z.array(Agent) });
export const AgentIdParam = z.object({ agentId: z.string().min(1, { error: "agentId is required" }) });

// ---- Settings ----

const SETTING_KEYS_LIST = ["signupCredits", "trialDays", "maintenanceMode", "maintenanceMessage", "featureFlags"] as const;

export const FeatureFlags = z.strictObject(
  {
    /** New accounts may sign up (off: signup answers 403 with a message). */
    signups: z.boolean({ error: "featureFlags.signups must be true or false" }),
    /** The internal marketing workflows may run. */
    marketing: z.boolean({ error: "featureFlags.marketing must be true or false" }),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? `unknown feature flag: ${issue.keys.join(", ")}` : undefined) },
);
export type FeatureFlags = z.infer<typeof FeatureFlags>;

export const SystemSettings = z.object({
  /** Credits a new account starts with. */
  signupCredits: z
    .number({ error: "signupCredits must be a whole number" })
    .int({ error: "signupCredits must be a whole number" })
    .min(0, { error: "signupCredits must be 0 or more" })
    .max(10_000, { error: "signupCredits must be at most 10000" }),
  /** Days a new account's trial lasts. */
  trialDays: z
    .number({ error: "trialDays must be a whole number" })
    .int({ error: "trialDays must be a whole number" })
    .min(0, { error: "trialDays must be 0 or more" })
    .max(365, { error: "trialDays must be at most 365" }),
  /** Read-only mode: every change by a non-admin answers 503 with `maintenanceMessage`. */
  maintenanceMode: z.boolean({ error: "maintenanceMode must be true or false" }),
  maintenanceMessage: z.string().trim().min(1).max(300, { error: "maintenanceMessage must be at most 300 characters" }),
  featureFlags: FeatureFlags,
});
export type SystemSettings = z.infer<typeof SystemSettings>;
export const SETTING_KEYS = SETTING_KEYS_LIST;

export const SystemSettingsUpdate = z
  .strictObject(
    {
      signupCredits: SystemSettings.shape.signupCredits.optional(),
      trialDays: SystemSettings.shape.trialDays.optional(),
      maintenanceMode: SystemSettings.shape.maintenanceMode.optional(),
      maintenanceMessage: SystemSettings.shape.maintenanceMessage.optional(),
      featureFlags: FeatureFlags.partial().optional(),
    },
    { error: (issue) => (issue.code === "unrecognized_keys" ? `unknown setting: ${issue.keys.join(", ")}` : undefined) },
  )
  .refine((value) => Object.keys(value).length > 0, {
    error: `give at least one of ${SETTING_KEYS.join(", ")}`,
    when: (payload) => payload.issues.length === 0,
  })
  .meta({ title: "SystemSettingsUpdate" });
export type SystemSettingsUpdate = z.infer<typeof SystemSettingsUpdate>;

export const SystemSettingsView = z.object({
  settings: SystemSettings,
  /** Where each value comes from: `default` (the environment) or `admin` (changed here). */
  sources: z.object(
    Object.fromEntries(SETTING_KEYS_LIST.map((key) => [key, z.enum(["default", "admin"])])) as Record<
      (typeof SETTING_KEYS_LIST)[number],
      z.ZodEnum<{ default: "default"; admin: "admin" }>
    >,
  ),
  defaults: SystemSettings,
});
export type SystemSettingsView = z.infer<typeof SystemSettingsView>;

// ---- System and health ----

export const AdminSystem = z.object({
  queues: z.array(
    z.object({
      name: z.string(),
      /** Messages waiting (created + retry). */
      depth: z.number().int(),
      states: countsOf(QUEUE_STATES),
    }),
  ),
  workers: z.object({
    /** Workflow workers configured in each server process (WORKERS). */
    workflowConcurrency: z.number().int(),
    /** Background workers polling the queue in this process. */
    polling: z.array(z.string()),
    /** Jobs running now, by the worker holding their lease. */
    runningJobs: z.number().int(),
  }),
  scheduledTasks: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      everySeconds: z.number().int(),
      status: AgentStatus,
      lastRunAt: IsoDateTime.nullable(),
      nextRunAt: IsoDateTime.nullable(),
    }),
  ),
  storage: z.object({
    mediaFiles: z.number().int(),
    mediaBytes: z.number().int(),
    freeBytes: z.number().int().nullable(),
    totalBytes: z.number().int().nullable(),
    databaseBytes: z.number().int().nullable(),
  }),
  /** The scene segment cache (renders reuse the segments of scenes that did not change). */
  renderCache: z.object({
    entries: z.number().int(),
    bytes: z.number().int(),
    /** RENDER_CACHE_MB in bytes (0: off). */
    capBytes: z.number().int(),
    hits: z.number().int(),
    misses: z.number().int(),
    /** hits / (hits + misses); null before the first lookup. */
    hitRate: z.number().nullable(),
  }),
  database: z.object({ engine: z.string() }),
  /** Outgoing e-mail: whether SMTP_URL is set (else nothing is sent), and mail_outbox by status. */
  mail: z.object({
    configured: z.boolean(),
    server: z.string().nullable(),
    from: z.string(),
    pending: z.number().int(),
    sent: z.number().int(),
    failed: z.number().int(),
    lastError: z.string().nullable(),
  }),
});
export type AdminSystem = z.infer<typeof AdminSystem>;

export const HealthCheck = z.object({
  name: z.string(),
  status: z.enum(["ok", "degraded", "error", "unconfigured"]),
  latencyMs: z.number(),
  detail: z.string(),
});
export const AdminHealth = z.object({
  status: z.enum(["ok", "degraded", "error"]),
  checkedAt: IsoDateTime,
  checks: z.array(HealthCheck),
});
export type AdminHealth = z.infer<typeof AdminHealth>;

// ---- Activity ----

export const ActivityQuery = z.object({
  page: z.coerce.number().int().min(1, { error: "page must be 1 or more" }).default(1),
  pageSize: z.coerce.number().int().min(1).max(100, { error: "pageSize must be between 1 and 100" }).default(50),
  userId: z.string().trim().min(1).max(100).optional().describe("the acting account, or the account acted on"),
  action: z.string().trim().min(1).max(100).optional().describe("an action, or its prefix ending in `.` (`admin.`)"),
  from: dayOrDateTime("from").optional(),
  to: dayOrDateTime("to").optional(),
});
export type ActivityQuery = z.infer<typeof ActivityQuery>;
export const ActivityPage = z.object({
  entries: z.array(AuditEntry.extend({ actorEmail: EmailAddress.nullable() })),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  totalPages: z.number().int(),
});
export type ActivityPage = z.infer<typeof ActivityPage>;

// ---- Marketing ----

export const MARKETING_KINDS = ["blog", "ad", "leads"] as const;
export const MarketingRequest = z.object({
  kinds: z
    .array(z.enum(MARKETING_KINDS, { error: `kinds must be among ${MARKETING_KINDS.join(", ")}` }))
    .min(1, { error: "kinds must name at least one of blog, ad, leads" })
    .default([...MARKETING_KINDS]),
});
export const MarketingRun = z.object({
  id: z.string(),
  kind: z.enum(MARKETING_KINDS),
  status: z.enum(["running", "completed", "failed"]),
  output: z.record(z.string(), z.unknown()).nullable(),
  error: z.string().nullable(),
  jobId: z.string().nullable(),
  createdAt: IsoDateTime,
  finishedAt: IsoDateTime.nullable(),
});
export type MarketingRun = z.infer<typeof MarketingRun>;
export const MarketingStatus = z.object({ runs: z.array(MarketingRun) });

// ---- Integrity ----

const Finding = <T extends z.ZodType>(example: T) => z.object({ count: z.number().int(), examples: z.array(example) });
export const IntegrityReport = z.object({
  ok: z.boolean(),
  checkedAt: IsoDateTime,
  accountsChecked: z.number().int(),
  ledgerMismatches: Finding(z.object({ userId: z.string(), email: EmailAddress, balance: z.number().int(), ledgerSum: z.number().int() })),
  orphanedMediaFiles: Finding(z.object({ key: z.string(), bytes: z.number().int() })),
  jobsWithMissingFiles: Finding(z.object({ jobId: z.string(), missing: z.array(z.string()) })),
  jobsStuckPastLease: Finding(z.object({ jobId: z.string(), status: z.string(), heartbeatAt: IsoDateTime.nullable() })),
  refundsWithoutCharge: Finding(
    z.object({ entryId: z.string(), userId: z.string(), reference: z.string().nullable(), delta: z.number().int() }),
  ),
});
export type IntegrityReport = z.infer<typeof IntegrityReport>;

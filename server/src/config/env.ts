// Reads the environment of CONTRACT.md into one typed object. Nothing else in the server reads process.env.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { CREDIT_PACKS } from "@adgen/schema";
import { z } from "zod";
import { LOG_LEVELS, type LogLevel } from "../logging/logger.ts";
import { type MediaStorageConfig, mediaStorageConfig } from "../media/media-config.ts";

const intFrom = (fallback: number, min = 0) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === "") return fallback;
      const n = Number(value);
      if (!Number.isInteger(n) || n < min) {
        ctx.addIssue({ code: "custom", message: `must be an integer ≥ ${min}` });
        return z.NEVER;
      }
      return n;
    });

/** A non-negative decimal (costs in cents, a margin), or the fallback when unset. */
const decimalFrom = (fallback: number, max = Number.POSITIVE_INFINITY) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === "") return fallback;
      const n = Number(value);
      if (!Number.isFinite(n) || n < 0 || n > max) {
        ctx.addIssue({ code: "custom", message: `must be a number from 0${Number.isFinite(max) ? ` to ${max}` : ""}` });
        return z.NEVER;
      }
      return n;
    });

/** The least a credit brings in: the pack with the lowest price per credit (schema's CREDIT_PACKS). */
const DEFAULT_CREDIT_VALUE_CENTS = Math.min(...CREDIT_PACKS.map((p) => (p.price * 100) / p.credits));

const logLevel = z
  .string()
  .optional()
  .transform((value, ctx): LogLevel => {
    const level = (value?.trim() || "info").toLowerCase();
    if ((LOG_LEVELS as readonly string[]).includes(level)) return level as LogLevel;
    ctx.addIssue({ code: "custom", message: `must be one of ${LOG_LEVELS.join(", ")} (got "${value}")` });
    return z.NEVER;
  });

const EnvSchema = z.object({
  PORT: intFrom(3000),
  HOST: z.string().default("127.0.0.1"),
  PUBLIC_URL: z.string().optional(),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: z.string().optional(),
  SESSION_SECRET: z.string().optional(),
  ADMIN_EMAIL: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  WORKERS: intFrom(2),
  WORKER_TOKEN: z.string().optional(),
  RATE_LIMIT_AUTH_PER_HOUR: intFrom(10, 1),
  RATE_LIMIT_STREAM_PER_HOUR: intFrom(10, 1),
  RATE_LIMIT_API_PER_MINUTE: intFrom(100, 1),
  RATE_LIMIT_PREVIEW_PER_MINUTE: intFrom(10, 1),
  TRIAL_DAYS: intFrom(7),
  SIGNUP_CREDITS: intFrom(10),
  HITL_TIMEOUT_SECONDS: intFrom(86400, 1),
  EXPORT_ALLOWED_HOSTS: z.string().optional(),
  CORS_ORIGINS: z.string().optional(),
  NODE_ENV: z.string().default("development"),
  PAYMENTS_SANDBOX: z.string().optional(),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  PADDLE_WEBHOOK_SECRET: z.string().optional(),
  LEMONSQUEEZY_WEBHOOK_SECRET: z.string().optional(),
  META_APP_SECRET: z.string().optional(),
  META_VERIFY_TOKEN: z.string().optional(),
  INVOICE_SELLER: z.string().optional(),
  INVOICE_TAX_PERCENT: z.string().optional(),
  SESSION_DAYS: intFrom(30, 1),
  STUDIO_MAX_AD_SECONDS: intFrom(15, 2),
  SYNC_WAIT_SECONDS: intFrom(120, 1),
  JOB_TIMEOUT_SECONDS: intFrom(4 * 3600, 2),
  JOB_RETRY_LIMIT: intFrom(2, 0),
  JOB_RETRY_DELAY_SECONDS: intFrom(5, 0),
  QUEUE_MAINTENANCE_SECONDS: intFrom(30, 1),
  QUEUE_POLL_SECONDS: intFrom(1, 1),
  SWEEP_SECONDS: intFrom(30, 1),
  JOB_LEASE_SECONDS: intFrom(60, 2),
  RENDER_THREADS: intFrom(0, 0),
  RENDER_CACHE_MB: intFrom(2048, 0),
  FAL_KEY: z.string().optional(),
  REPLICATE_API_TOKEN: z.string().optional(),
  ELEVENLABS_API_KEY: z.string().optional(),
  PROVIDER_POLL_SECONDS: intFrom(10, 1),
  PRESENTER_STOCK_AVATAR: z.string().optional(),
  PROVIDER_TIMEOUT_SECONDS: intFrom(1800, 10),
  PROVIDER_COST_VIDEO_CENTS_PER_SECOND: decimalFrom(5),
  PROVIDER_COST_VIDEO_PREMIUM_CENTS_PER_SECOND: decimalFrom(10),
  PROVIDER_COST_PRESENTER_CENTS_PER_SECOND: decimalFrom(8),
  PROVIDER_COST_PICTURE_CENTS: decimalFrom(0.3),
  PROVIDER_COST_VOICE_CENTS_PER_1000_CHARACTERS: decimalFrom(30),
  CREDIT_VALUE_CENTS: decimalFrom(DEFAULT_CREDIT_VALUE_CENTS),
  PROVIDER_MARGIN: decimalFrom(0.3, 0.99),
  LLM_BASE_URL: z
    .string()
    .url({ error: "must be the http(s) root of an OpenAI-compatible API, like https://api.openai.com/v1" })
    .optional(),
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().optional(),
  LOG_LEVEL: logLevel,
  MEDIA_STORAGE: z.string().optional(),
  S3_BUCKET: z.string().optional(),
  S3_ENDPOINT: z.string().optional(),
  S3_REGION: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: z.string().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().optional(),
});

export type DatabaseTarget =
  | { kind: "pglite"; dataDir: string /** Unpack the build's template into an empty directory (default true). */; useTemplate?: boolean }
  | { kind: "pglite-memory"; loadDataDir?: Blob | File }
  | { kind: "postgres"; url: string };

/** An OpenAI-compatible chat-completions endpoint (LLM_*), for modules/language-model. */
export interface LanguageModelConfig {
  /** The API root, e.g. https://api.openai.com/v1 (the request goes to `<baseUrl>/chat/completions`). */
  baseUrl: string;
  apiKey: string;
  model: string;
}

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  database: DatabaseTarget;
  sessionSecret: Uint8Array;
  admin: { email: string; password: string } | null;
  workers: number;
  workerToken: string | null;
  rateLimits: { authPerHour: number; streamPerHour: number; apiPerMinute: number; previewPerMinute: number };
  trialDays: number;
  signupCredits: number;
  sessionDays: number;
  hitlTimeoutSeconds: number;
  exportAllowedHosts: string[];
  /** Other origins (scheme://host[:port]) whose pages may call the API with a bearer token; never with cookies. */
  corsOrigins: string[];
  production: boolean;
  paymentsSandbox: boolean;
  /** Money (modules/billing): the checkout provider, inbound webhook secrets (null: that webhook answers 503), invoices. */
  payments: PaymentsConfig;
  version: string;
  /** Length of a studio-rendered ad. */
  maxAdSeconds: number;
  /** How long `async: false` launches wait before answering the queued shape. */
  syncWaitSeconds: number;
  queue: { jobTimeoutSeconds: number; retryLimit: number; retryDelaySeconds: number; maintenanceSeconds: number; pollingSeconds: number };
  /** A running job's worker renews its lease every third of this; a lease this old means the worker died. */
  jobLeaseSeconds: number;
  /** Period of the review-expiry and re-queue sweeps. */
  sweepSeconds: number;
  /** ffmpeg threads per render (0: ffmpeg decides). */
  renderThreads: number;
  /** The scene segment cache's size cap in bytes (RENDER_CACHE_MB; 0: no cache, every segment is encoded). */
  renderCacheBytes: number;
  /** The least severe log lines written (`silent`: none). */
  logLevel: LogLevel;
  /** An OpenAI-compatible chat-completions endpoint for the words of ads (null: the built-in director). */
  languageModel: LanguageModelConfig | null;
  /** Remote generation providers' keys (null: not configured; with none, the built-in studio makes everything). */
  providers: {
    falKey: string | null;
    replicateToken: string | null;
    elevenLabsKey: string | null;
    /** How often a job waiting for generated clips asks the provider how they are doing (a webhook is sooner). */
    pollSeconds: number;
    /** How long a generated clip may take before the job fails and is refunded. */
    timeoutSeconds: number;
    /** The video service's stock presenter that speaks for an account with no presenter photo (null: a photo is needed). */
    stockAvatar: string | null;
  };
  /** What remote models cost us and what a credit brings in: the launch's cost guard (modules/providers/provider-cost.ts). */
  providerCosts: ProviderCostConfig;
  /** Where media live: DATA_DIR/media (local) or an S3-compatible bucket every machine shares (media/media-config.ts). */
  media: MediaStorageConfig;
  /** Outgoing e-mail (modules/mail): the SMTP server (null: mail waits in mail_outbox) and the sender address. */
  mail: MailConfig;
}

export interface ProviderCostConfig {
  /** US cents per second of generated clip, by tier (generated-video). */
  videoCentsPerSecond: { standard: number; premium: number };
  /** US cents per second of talking presenter. */
  presenterCentsPerSecond: number;
  /** US cents per generated picture. */
  pictureCents: number;
  /** US cents per 1,000 characters of natural voice. */
  voiceCentsPer1000Characters: number;
  /** What one credit brings in, in US cents (default: the cheapest credit of the packs, 69.99 cents). */
  creditValueCents: number;
  /** The share of a job's credit value kept back: provider cost may use at most (1 − margin) of it. */
  margin: number;
}

export interface MailConfig {
  /** smtp://user:pass@host:port or smtps://… (SMTP_URL); null: not configured, nothing is sent. */
  smtpUrl: string | null;
  /** The From of every e-mail (MAIL_FROM). */
  from: string;
}

export interface PaymentsConfig {
  stripeSecretKey: string | null;
  webhookSecrets: { stripe: string | null; paddle: string | null; lemonsqueezy: string | null; meta: string | null };
  metaVerifyToken: string | null;
  /** The seller printed on invoices (name and address lines, separated by `|`). */
  invoiceSeller: string;
  /** Tax included in every price, in percent (0: none); invoices show it as a line. */
  invoiceTaxPercent: number;
}

export class ConfigError extends Error {}

/** LLM_BASE_URL, LLM_API_KEY and LLM_MODEL come together or not at all. */
function languageModelConfig(e: z.infer<typeof EnvSchema>): LanguageModelConfig | null {
  const set = [e.LLM_BASE_URL, e.LLM_API_KEY, e.LLM_MODEL].filter(Boolean).length;
  if (set === 0) return null;
  if (set < 3) throw new ConfigError("LLM_BASE_URL, LLM_API_KEY and LLM_MODEL must be set together");
  return { baseUrl: e.LLM_BASE_URL!, apiKey: e.LLM_API_KEY!, model: e.LLM_MODEL! };
}

/** Reads a secret from DATA_DIR, creating it once so restarts keep sessions valid. */
function persistentSecret(dataDir: string, name: string): string {
  const file = join(dataDir, "secrets", name);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(join(dataDir, "secrets"), { recursive: true, mode: 0o700 });
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
  return secret;
}

export function loadConfig(env: Record<string, string | undefined> = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid environment:\n  ${lines.join("\n  ")}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");

  let database: DatabaseTarget;
  const url = e.DATABASE_URL?.trim();
  if (!url) database = { kind: "pglite", dataDir: join(dataDir, "db") };
  else if (url === "memory://") database = { kind: "pglite-memory" };
  else if (/^postgres(ql)?:\/\//.test(url)) database = { kind: "postgres", url };
  else throw new ConfigError("DATABASE_URL must be unset, memory:// or postgres://…");

  const needsDisk = database.kind === "pglite" || !e.SESSION_SECRET;
  if (needsDisk) mkdirSync(dataDir, { recursive: true });
  const secret = e.SESSION_SECRET ?? persistentSecret(dataDir, "session-secret");
  if (secret.length < 32) throw new ConfigError("SESSION_SECRET must be at least 32 characters");

  if (Boolean(e.ADMIN_EMAIL) !== Boolean(e.ADMIN_PASSWORD)) {
    throw new ConfigError("ADMIN_EMAIL and ADMIN_PASSWORD must be set together");
  }

  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    dataDir,
    database,
    sessionSecret: new TextEncoder().encode(secret),
    admin: e.ADMIN_EMAIL && e.ADMIN_PASSWORD ? { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD } : null,
    workers: e.WORKERS,
    workerToken: e.WORKER_TOKEN || null,
    rateLimits: {
      authPerHour: e.RATE_LIMIT_AUTH_PER_HOUR,
      streamPerHour: e.RATE_LIMIT_STREAM_PER_HOUR,
      apiPerMinute: e.RATE_LIMIT_API_PER_MINUTE,
      previewPerMinute: e.RATE_LIMIT_PREVIEW_PER_MINUTE,
    },
    trialDays: e.TRIAL_DAYS,
    signupCredits: e.SIGNUP_CREDITS,
    sessionDays: e.SESSION_DAYS,
    hitlTimeoutSeconds: e.HITL_TIMEOUT_SECONDS,
    exportAllowedHosts: (e.EXPORT_ALLOWED_HOSTS ?? new URL(publicUrl).hostname)
      .split(",")
      .map((host) => host.trim().toLowerCase())
      .filter(Boolean),
    corsOrigins: (e.CORS_ORIGINS ?? "")
      .split(",")
      .map((origin) => origin.trim().replace(/\/+$/, "").toLowerCase())
      .filter(Boolean),
    production: e.NODE_ENV === "production",
    paymentsSandbox: e.NODE_ENV !== "production" || e.PAYMENTS_SANDBOX === "1",
    payments: paymentsConfig(e),
    version: "1.0.0",
    maxAdSeconds: e.STUDIO_MAX_AD_SECONDS,
    syncWaitSeconds: e.SYNC_WAIT_SECONDS,
    queue: {
      jobTimeoutSeconds: e.JOB_TIMEOUT_SECONDS,
      retryLimit: e.JOB_RETRY_LIMIT,
      retryDelaySeconds: e.JOB_RETRY_DELAY_SECONDS,
      maintenanceSeconds: e.QUEUE_MAINTENANCE_SECONDS,
      pollingSeconds: e.QUEUE_POLL_SECONDS,
    },
    sweepSeconds: e.SWEEP_SECONDS,
    jobLeaseSeconds: e.JOB_LEASE_SECONDS,
    renderThreads: e.RENDER_THREADS,
    renderCacheBytes: e.RENDER_CACHE_MB * 1024 * 1024,
    logLevel: e.LOG_LEVEL,
    languageModel: languageModelConfig(e),
    providers: {
      falKey: e.FAL_KEY?.trim() || null,
      replicateToken: e.REPLICATE_API_TOKEN?.trim() || null,
      elevenLabsKey: e.ELEVENLABS_API_KEY?.trim() || null,
      pollSeconds: e.PROVIDER_POLL_SECONDS,
      timeoutSeconds: e.PROVIDER_TIMEOUT_SECONDS,
      stockAvatar: e.PRESENTER_STOCK_AVATAR?.trim() || null,
    },
    providerCosts: {
      videoCentsPerSecond: { standard: e.PROVIDER_COST_VIDEO_CENTS_PER_SECOND, premium: e.PROVIDER_COST_VIDEO_PREMIUM_CENTS_PER_SECOND },
      presenterCentsPerSecond: e.PROVIDER_COST_PRESENTER_CENTS_PER_SECOND,
      pictureCents: e.PROVIDER_COST_PICTURE_CENTS,
      voiceCentsPer1000Characters: e.PROVIDER_COST_VOICE_CENTS_PER_1000_CHARACTERS,
      creditValueCents: e.CREDIT_VALUE_CENTS,
      margin: e.PROVIDER_MARGIN,
    },
    media: mediaConfig(e),
    mail: mailConfig(e, publicUrl),
    ...overrides,
  };
}

function mediaConfig(e: z.output<typeof EnvSchema>): MediaStorageConfig {
  try {
    return mediaStorageConfig(e);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
}

function paymentsConfig(e: z.output<typeof EnvSchema>): PaymentsConfig {
  const value = (text: string | undefined) => text?.trim() || null;
  const tax = Number(e.INVOICE_TAX_PERCENT ?? "0");
  if (!Number.isFinite(tax) || tax < 0 || tax >= 100) throw new ConfigError("INVOICE_TAX_PERCENT must be a number from 0 to below 100");
  return {
    stripeSecretKey: value(e.STRIPE_SECRET_KEY),
    webhookSecrets: {
      stripe: value(e.STRIPE_WEBHOOK_SECRET),
      paddle: value(e.PADDLE_WEBHOOK_SECRET),
      lemonsqueezy: value(e.LEMONSQUEEZY_WEBHOOK_SECRET),
      meta: value(e.META_APP_SECRET),
    },
    metaVerifyToken: value(e.META_VERIFY_TOKEN),
    invoiceSeller: value(e.INVOICE_SELLER) ?? "AdGen",
    invoiceTaxPercent: tax,
  };
}

/** SMTP_URL must be an smtp:// or smtps:// URL; MAIL_FROM defaults to no-reply at PUBLIC_URL's host. */
function mailConfig(e: z.output<typeof EnvSchema>, publicUrl: string): MailConfig {
  const smtpUrl = e.SMTP_URL?.trim() || null;
  if (smtpUrl) {
    let protocol = "";
    try {
      protocol = new URL(smtpUrl).protocol;
    } catch {}
    if (protocol !== "smtp:" && protocol !== "smtps:") {
      throw new ConfigError("SMTP_URL must look like smtp://user:pass@host:587 or smtps://user:pass@host:465");
    }
  }
  return { smtpUrl, from: e.MAIL_FROM?.trim() || `AdGen <no-reply@${new URL(publicUrl).hostname}>` };
}

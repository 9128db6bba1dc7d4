// What every domain function receives: the services of this process and who is asking. (Named apart from
// modules/assistant/context.ts, which is what the assistant knows about a conversation.)
import type { LanguageModel } from "./modules/language-model/chat-completions.ts";
import type { RemoteProviders } from "./modules/providers/remote-providers.ts";
import type { PrismaClient, User } from "@adgen/prisma";
import type { ApiKeyScope } from "@adgen/schema";
import type { Config } from "./config/env.ts";
import type { Database } from "./db/database.ts";
import type { EventBus } from "./bus/bus.ts";
import type { Logger } from "./logging/logger.ts";
import type { RequestTrace } from "./logging/request-trace.ts";
import type { RateLimiter } from "./rate-limit/limiter.ts";
import type { MediaStorage } from "./media/storage.ts";
import type { SessionManager } from "./modules/auth/sessions.ts";
import type { Resolver } from "./modules/net/safe-fetch.ts";
import type { SegmentCache } from "./modules/render/scene-segments.ts";
import type { VideoRenderer } from "./modules/render/types.ts";
import type { VoiceSynthesizer } from "./modules/voice/types.ts";
import type { JobQueue } from "./queue/queue.ts";

export interface Services {
  config: Config;
  db: Database;
  prisma: PrismaClient;
  sessions: SessionManager;
  rateLimiter: RateLimiter;
  events: EventBus;
  /** The structured log (JSON lines at LOG_LEVEL); tests inject one writing to memory. */
  logger: Logger;
  queue: JobQueue;
  media: MediaStorage;
  renderer: VideoRenderer;
  /** Speech for narrated ads (the built-in offline voice unless a provider is configured). */
  voice: VoiceSynthesizer;
  /** The words of ads from a language model, when LLM_* configure one (null: the built-in director). */
  languageModel: LanguageModel | null;
  /** Remote picture and voice providers this instance has keys for (none: the built-in studio makes everything). */
  providers: RemoteProviders;
  /** DNS for outbound requests (tests give a fake one; the network there is closed). */
  resolver: Resolver;
  /** Wakes this process's workflow workers (set when workers start; a no-op without them). */
  wakeWorkers(): void;
  /** Rendered scene segments kept for later renders and shared by the workers (null: RENDER_CACHE_MB=0). */
  segmentCache: SegmentCache | null;
  /** This instance as a worker, on the segment tasks it takes (machine, process, instance). */
  workerName: string;
}

export interface AuthState {
  user: User;
  method: "session" | "api_key";
  /** Present for session credentials. */
  session: { id: string; expiresAt: Date } | null;
  /** Present for API-key credentials (which key: a stream opened with it ends when it is revoked). */
  apiKey?: { id: string; scope: ApiKeyScope } | null;
  /** Set when the sliding expiry extended the session: the transport re-issues the cookie with it. */
  renewedToken: string | null;
}

export interface RequestContext {
  services: Services;
  auth: AuthState | null;
  ip: string | null;
  userAgent: string | null;
  /** The HTTP request's id and what it ran, for its log line; absent for calls the server makes itself. */
  trace?: RequestTrace;
}

/** Transaction client type, for functions that must run inside a caller's transaction. */
export type Tx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

/** The audit's view of a request: the signed-in account (if any) and the address the request came from. */
export function auditSourceOf(ctx: Pick<RequestContext, "ip" | "auth">): { actorId: string | null; ip: string | null } {
  return { actorId: ctx.auth?.user.id ?? null, ip: ctx.ip };
}

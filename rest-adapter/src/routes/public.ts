import { ContactInput, ContactResult, DbHealth, Health, ModelsStatus, NewsletterInput, NewsletterResult, Pricing, SignupTestResult, StudioConfig } from "@adgen/schema";
import { getModelsStatus, getPricing, getStudioConfig } from "@adgen/server/modules/catalog/catalog.ts";
import { submitContact, subscribeNewsletter } from "@adgen/server/modules/contact/contact.ts";
import { dbHealth, health, signupSelfTest } from "@adgen/server/modules/health/health.ts";
import type { z } from "zod";
import { route } from "../route.ts";

export const publicRoutes = [
  route({
    method: "GET", path: "/health", operation: "health", tag: "Health", auth: "public",
    summary: "Liveness: status and time, no internals", response: Health,
    handler: (ctx) => health(ctx.services),
  }),
  route({
    method: "HEAD", path: "/health", operation: "health.head", tag: "Health", auth: "public",
    summary: "Liveness without a body",
    handler: () => new Response(null, { status: 200 }),
  }),
  route({
    method: "GET", path: "/health/db", operation: "health.db", tag: "Health", auth: "user",
    summary: "Database connectivity and response time", response: DbHealth,
    handler: (ctx) => dbHealth(ctx),
  }),
  route({
    method: "GET", path: "/health/signup-test", operation: "health.signupTest", tag: "Health", auth: "user",
    summary: "Runs signup → login → session on a throwaway account, removes it, reports each step and its time",
    response: SignupTestResult,
    handler: (ctx) => signupSelfTest(ctx),
  }),
  route({
    method: "GET", path: "/config/pricing", operation: "public.pricing", tag: "Config", auth: "public",
    summary: "Credit cost of every workflow type, credit packs and plans", response: Pricing,
    handler: (ctx) => getPricing(ctx.services.config),
  }),
  route({
    method: "GET", path: "/config/studio", operation: "public.studio", tag: "Config", auth: "public",
    summary: "Workflow types, formats, models and studio settings", response: StudioConfig,
    handler: (ctx) => getStudioConfig(ctx.services.config),
  }),
  route({
    method: "GET", path: "/models/status", operation: "public.modelsStatus", tag: "Config", auth: "public",
    summary: "Capabilities by category and tier (never a provider name)", response: ModelsStatus,
    handler: () => getModelsStatus(),
  }),
  route({
    method: "POST", path: "/contact", operation: "public.contact", tag: "Contact", auth: "public", rateLimit: "auth",
    summary: "Send a message to the team", body: ContactInput, response: ContactResult,
    handler: (ctx, { body }) => submitContact(ctx, body as z.input<typeof ContactInput>),
  }),
  route({
    method: "POST", path: "/newsletter/subscribe", operation: "public.newsletter", tag: "Contact", auth: "public", rateLimit: "auth",
    summary: "Subscribe an e-mail to the newsletter (idempotent)", body: NewsletterInput, response: NewsletterResult,
    handler: (ctx, { body }) => subscribeNewsletter(ctx, body as z.input<typeof NewsletterInput>),
  }),
];

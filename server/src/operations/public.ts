// public.*: what anyone may read or send without an account: prices, studio settings, capabilities,
// the contact form and the newsletter.
import { ContactInput, ContactResult, ModelsStatus, NewsletterInput, NewsletterResult, Pricing, StudioConfig } from "@adgen/schema";
import { readSettings } from "../modules/settings/settings.ts";
import { getModelsStatus, getPricing, getStudioConfig } from "../modules/pricing/pricing.ts";
import { submitContact, subscribeNewsletter } from "../modules/contact/contact.ts";
import { auditSourceOf } from "../request-context.ts";
import { defineOperation, NoInput } from "./operation.ts";

const open = { access: "public" } as const;

export const publicOperations = {
  pricing: defineOperation({
    ...open,
    summary: "Credit cost of every workflow type, credit packs and plans",
    kind: "query",
    input: NoInput,
    output: Pricing,
    rest: { method: "GET", path: "/config/pricing", tag: "Config" },
    handler: async (ctx) => {
      const settings = await readSettings(ctx.services);
      return getPricing(ctx.services.config, { days: settings.trialDays, credits: settings.signupCredits });
    },
  }),
  studio: defineOperation({
    ...open,
    summary: "Workflow types, formats, models and studio settings",
    kind: "query",
    input: NoInput,
    output: StudioConfig,
    rest: { method: "GET", path: "/config/studio", tag: "Config" },
    handler: (ctx) => getStudioConfig(ctx.services.config, ctx.services.providers),
  }),
  modelsStatus: defineOperation({
    ...open,
    summary: "Capabilities by category and tier (never a provider name)",
    kind: "query",
    input: NoInput,
    output: ModelsStatus,
    rest: { method: "GET", path: "/models/status", tag: "Config" },
    handler: (ctx) => getModelsStatus(ctx.services),
  }),
  contact: defineOperation({
    ...open,
    summary: "Send a message to the team",
    kind: "mutation",
    rateLimit: "auth",
    input: ContactInput,
    output: ContactResult,
    rest: { method: "POST", path: "/contact", tag: "Contact" },
    handler: (ctx, input) => submitContact(ctx.services, auditSourceOf(ctx), input),
  }),
  newsletter: defineOperation({
    ...open,
    summary: "Subscribe an e-mail to the newsletter (idempotent)",
    kind: "mutation",
    rateLimit: "auth",
    input: NewsletterInput,
    output: NewsletterResult,
    rest: { method: "POST", path: "/newsletter/subscribe", tag: "Contact" },
    handler: (ctx, input) => subscribeNewsletter(ctx.services, input),
  }),
};

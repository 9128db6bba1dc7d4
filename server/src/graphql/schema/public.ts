import type { Capability, ModelsStatus, Pricing } from "@adgen/schema";
import { getModelsStatus, getPricing, getStudioConfig } from "../../modules/catalog/catalog.ts";
import { submitContact, subscribeNewsletter } from "../../modules/contact/contact.ts";
import { dbHealth, health, signupSelfTest } from "../../modules/health/health.ts";
import { enforceRateLimit } from "../../rate-limit/enforce.ts";
import { builder, PlanIdEnum, WorkflowTypeEnum } from "../builder.ts";

const WorkflowPriceRef = builder.objectRef<Pricing["workflows"][number]>("WorkflowPrice").implement({
  fields: (t) => ({
    type: t.field({ type: WorkflowTypeEnum, resolve: (w) => w.type }),
    name: t.exposeString("name"),
    standard: t.exposeInt("standard"),
    premium: t.exposeInt("premium"),
    reservedOnPlans: t.field({ type: [PlanIdEnum], resolve: (w) => w.reservedOnPlans }),
  }),
});
const CreditPackRef = builder.objectRef<Pricing["packs"][number]>("CreditPack").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    credits: t.exposeInt("credits"),
    price: t.exposeFloat("price"),
    currency: t.exposeString("currency"),
  }),
});
const PlanPriceRef = builder.objectRef<Pricing["plans"][number]>("PlanPrice").implement({
  fields: (t) => ({
    id: t.field({ type: PlanIdEnum, resolve: (p) => p.id }),
    name: t.exposeString("name"),
    monthly: t.exposeFloat("monthly"),
    yearly: t.exposeFloat("yearly"),
    currency: t.exposeString("currency"),
    monthlyCredits: t.exposeInt("monthlyCredits"),
    apiAccess: t.exposeBoolean("apiAccess"),
    reservedWorkflows: t.exposeBoolean("reservedWorkflows"),
  }),
});
const PricingRef = builder.objectRef<Pricing>("Pricing").implement({
  fields: (t) => ({
    currency: t.exposeString("currency"),
    workflows: t.field({ type: [WorkflowPriceRef], resolve: (p) => p.workflows }),
    packs: t.field({ type: [CreditPackRef], resolve: (p) => p.packs }),
    plans: t.field({ type: [PlanPriceRef], resolve: (p) => p.plans }),
    trialDays: t.int({ resolve: (p) => p.trial.days }),
    trialCredits: t.int({ resolve: (p) => p.trial.credits }),
  }),
});
const CapabilityRef = builder.objectRef<Capability>("Capability").implement({
  fields: (t) => ({
    name: t.exposeString("name"),
    category: t.exposeString("category"),
    tier: t.exposeString("tier"),
    status: t.exposeString("status"),
    isNew: t.exposeBoolean("isNew"),
    features: t.exposeStringList("features"),
  }),
});
const ModelsStatusRef = builder.objectRef<ModelsStatus>("ModelsStatus").implement({
  fields: (t) => ({
    capabilities: t.field({ type: [CapabilityRef], resolve: (m) => m.capabilities }),
    totalCapabilities: t.int({ resolve: (m) => m.stats.totalCapabilities }),
    recentlyUpdated: t.int({ resolve: (m) => m.stats.recentlyUpdated }),
    categories: t.int({ resolve: (m) => m.stats.categories }),
  }),
});
const HealthRef = builder.objectRef<ReturnType<typeof health>>("Health").implement({
  fields: (t) => ({
    status: t.exposeString("status"),
    timestamp: t.field({ type: "DateTime", resolve: (h) => h.timestamp }),
    version: t.exposeString("version"),
  }),
});
const DbHealthRef = builder.objectRef<Awaited<ReturnType<typeof dbHealth>>>("DbHealth").implement({
  fields: (t) => ({ status: t.exposeString("status"), engine: t.exposeString("engine"), responseTimeMs: t.exposeFloat("responseTimeMs") }),
});
type SignupTest = Awaited<ReturnType<typeof signupSelfTest>>;
const SignupTestStepRef = builder.objectRef<SignupTest["steps"][number]>("SignupTestStep").implement({
  fields: (t) => ({
    step: t.exposeString("step"),
    ok: t.exposeBoolean("ok"),
    ms: t.exposeInt("ms"),
    error: t.exposeString("error", { nullable: true }),
  }),
});
const SignupTestRef = builder.objectRef<SignupTest>("SignupTest").implement({
  fields: (t) => ({
    success: t.exposeBoolean("success"),
    totalMs: t.exposeInt("totalMs"),
    steps: t.field({ type: [SignupTestStepRef], resolve: (r) => r.steps }),
  }),
});

builder.queryFields((t) => ({
  health: t.field({ type: HealthRef, resolve: (_, __, ctx) => health(ctx.services) }),
  dbHealth: t.field({ type: DbHealthRef, resolve: (_, __, ctx) => dbHealth(ctx) }),
  signupTest: t.field({ type: SignupTestRef, resolve: (_, __, ctx) => signupSelfTest(ctx) }),
  pricing: t.field({ type: PricingRef, resolve: (_, __, ctx) => getPricing(ctx.services.config) }),
  studioConfig: t.field({ type: "JSON", resolve: (_, __, ctx) => getStudioConfig(ctx.services.config) }),
  modelsStatus: t.field({ type: ModelsStatusRef, resolve: () => getModelsStatus() }),
}));

builder.mutationFields((t) => ({
  contact: t.id({
    args: { email: t.arg.string({ required: true }), name: t.arg.string(), message: t.arg.string({ required: true }) },
    resolve: async (_, args, ctx) => {
      await enforceRateLimit(ctx, "auth", "public.contact");
      return (await submitContact(ctx, { email: args.email, name: args.name ?? undefined, message: args.message })).id;
    },
  }),
  subscribeNewsletter: t.boolean({
    args: { email: t.arg.string({ required: true }) },
    resolve: async (_, args, ctx) => {
      await enforceRateLimit(ctx, "auth", "public.newsletter");
      return (await subscribeNewsletter(ctx, args)).subscribed;
    },
  }),
}));

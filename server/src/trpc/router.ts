import {
  AdminCreditGrant,
  AdminResetPassword,
  AdminStatusUpdate,
  AdminUserListQuery,
  AdminUserUpdate,
  AuthCredentials,
  ChangePasswordInput,
  ContactInput,
  NewsletterInput,
  ProviderPreferenceInput,
} from "@adgen/schema";
import {
  AnalyticsQuery,
  BatchQuery,
  BrandProfileInput,
  HitlDecision,
  JobIdInput,
  ReviewInput,
  StatsQuery,
  WorkflowPrefs,
  WorkflowRequest,
} from "@adgen/schema";
import { z } from "zod";
import { getBrandProfile, saveBrandProfile } from "../modules/brand/brand-profile.ts";
import { userAnalytics, userStats } from "../modules/projects/insights.ts";
import { getWorkflowPrefs, listProjects, rateProject, reviewHistory, saveWorkflowPrefs } from "../modules/projects/projects.ts";
import { getWebhookSettings, saveWebhookSettings, WebhookSettingsInput } from "../modules/webhooks/endpoint.ts";
import { batchStatus } from "../modules/workflows/batch.ts";
import { cancelJob } from "../modules/workflows/cancel-job.ts";
import { decideHitl, getHitlState } from "../modules/workflows/hitl.ts";
import { openJobStream, watchAccountJobEvents } from "../modules/workflows/job-stream.ts";
import { getJob } from "../modules/workflows/jobs.ts";
import { estimateWorkflow, launchWorkflow } from "../modules/workflows/launch-workflow.ts";
import { generateApiKey, getApiKeyStatus, revokeApiKey } from "../modules/api-keys/api-keys.ts";
import { getSession } from "../modules/auth/get-session.ts";
import { login } from "../modules/auth/login.ts";
import { logout } from "../modules/auth/logout.ts";
import { signup } from "../modules/auth/signup.ts";
import { getUser, grantCredits, listUsers, resetPassword, setUserStatus, updateUser } from "../modules/admin/users.ts";
import { getModelsStatus, getPricing, getStudioConfig } from "../modules/catalog/catalog.ts";
import { submitContact, subscribeNewsletter } from "../modules/contact/contact.ts";
import { watchBalance } from "../modules/events/account-events.ts";
import { dbHealth, health, signupSelfTest } from "../modules/health/health.ts";
import { changePassword, getCreditBalance, getProfile, getProviderPreference, setProviderPreference } from "../modules/users/account.ts";
import { clearedSessionCookie, sessionCookie } from "../http/cookies.ts";
import { adminProcedure as admin, publicProcedure as p, router } from "./init.ts";

const UserId = z.object({ id: z.string().min(1) });

export const appRouter = router({
  auth: router({
    signup: p
      .meta({ rateLimit: "auth" })
      .input(AuthCredentials)
      .mutation(async ({ ctx, input }) => {
        const { user, session } = await signup(ctx, input);
        ctx.resHeaders.append("set-cookie", sessionCookie(session.jwt, session.expiresAt));
        return user;
      }),
    login: p
      .meta({ rateLimit: "auth" })
      .input(AuthCredentials)
      .mutation(async ({ ctx, input }) => {
        const { user, session } = await login(ctx, input);
        ctx.resHeaders.append("set-cookie", sessionCookie(session.jwt, session.expiresAt));
        return user;
      }),
    logout: p.mutation(async ({ ctx }) => {
      const result = await logout(ctx);
      ctx.resHeaders.append("set-cookie", clearedSessionCookie());
      return result;
    }),
    session: p.query(({ ctx }) => getSession(ctx)),
  }),
  user: router({
    profile: p.query(({ ctx }) => getProfile(ctx)),
    credits: p.query(({ ctx }) => getCreditBalance(ctx)),
    changePassword: p
      .meta({ rateLimit: "auth" })
      .input(ChangePasswordInput)
      .mutation(({ ctx, input }) => changePassword(ctx, input)),
    providerPreference: p.query(({ ctx }) => getProviderPreference(ctx)),
    setProviderPreference: p.input(ProviderPreferenceInput).mutation(({ ctx, input }) => setProviderPreference(ctx, input)),
    apiKey: p.query(({ ctx }) => getApiKeyStatus(ctx)),
    generateApiKey: p.mutation(({ ctx }) => generateApiKey(ctx)),
    revokeApiKey: p.mutation(({ ctx }) => revokeApiKey(ctx)),
    balanceChanges: p.subscription(({ ctx, signal }) => watchBalance(ctx, signal)),
  }),
  admin: router({
    users: admin.input(AdminUserListQuery).query(({ ctx, input }) => listUsers(ctx, input)),
    user: admin.input(UserId).query(({ ctx, input }) => getUser(ctx, input.id)),
    updateUser: admin.input(UserId.extend({ patch: AdminUserUpdate })).mutation(({ ctx, input }) => updateUser(ctx, input.id, input.patch)),
    setUserStatus: admin.input(UserId.extend(AdminStatusUpdate.shape)).mutation(({ ctx, input }) => setUserStatus(ctx, input.id, input)),
    grantCredits: admin.input(UserId.extend(AdminCreditGrant.shape)).mutation(({ ctx, input }) => grantCredits(ctx, input.id, input)),
    resetPassword: admin.input(AdminResetPassword).mutation(({ ctx, input }) => resetPassword(ctx, input)),
  }),
  workflow: router({
    estimate: p.input(WorkflowRequest).query(({ ctx, input }) => estimateWorkflow(ctx, input)),
    launch: p.input(WorkflowRequest.and(z.object({ idempotencyKey: z.string().max(255).optional() }))).mutation(async ({ ctx, input }) => {
      const { idempotencyKey, ...request } = input;
      const outcome = await launchWorkflow(ctx, request, { idempotencyKey });
      return { ...outcome.data, cost: outcome.cost, message: outcome.message, replayed: outcome.replayed };
    }),
    cancel: p.input(JobIdInput).mutation(({ ctx, input }) => cancelJob(ctx, input.jobId)),
    job: p.input(JobIdInput).query(({ ctx, input }) => getJob(ctx, input.jobId)),
    /** The job's events: current state first, then live until it finishes (SSE under /trpc). */
    events: p.input(JobIdInput.extend({ lastEventId: z.number().int().optional() })).subscription(async function* ({ ctx, input, signal }) {
      const { items } = await openJobStream(ctx, input.jobId, { lastEventId: input.lastEventId ?? null, signal });
      for await (const item of items) yield { event: item.event, ...item.data };
    }),
    accountEvents: p.subscription(({ ctx, signal }) => watchAccountJobEvents(ctx, signal)),
    hitl: p.input(JobIdInput).query(({ ctx, input }) => getHitlState(ctx, input.jobId)),
    decide: p.input(HitlDecision).mutation(({ ctx, input }) => decideHitl(ctx, input)),
    batch: p.input(BatchQuery).query(({ ctx, input }) => batchStatus(ctx, input)),
    prefs: p.query(({ ctx }) => getWorkflowPrefs(ctx)),
    savePrefs: p.input(WorkflowPrefs).mutation(({ ctx, input }) => saveWorkflowPrefs(ctx, input)),
  }),
  projects: router({
    list: p.query(({ ctx }) => listProjects(ctx)),
    rate: p.input(ReviewInput).mutation(({ ctx, input }) => rateProject(ctx, input)),
    reviews: p.query(({ ctx }) => reviewHistory(ctx)),
    stats: p.input(StatsQuery).query(({ ctx, input }) => userStats(ctx, input)),
    analytics: p.input(AnalyticsQuery).query(({ ctx, input }) => userAnalytics(ctx, input)),
  }),
  brand: router({
    get: p.query(({ ctx }) => getBrandProfile(ctx)),
    save: p.input(BrandProfileInput).mutation(({ ctx, input }) => saveBrandProfile(ctx, input)),
  }),
  webhook: router({
    get: p.query(({ ctx }) => getWebhookSettings(ctx)),
    save: p.input(WebhookSettingsInput).mutation(({ ctx, input }) => saveWebhookSettings(ctx, input)),
  }),
  public: router({
    health: p.query(({ ctx }) => health(ctx.services)),
    pricing: p.query(({ ctx }) => getPricing(ctx.services.config)),
    studio: p.query(({ ctx }) => getStudioConfig(ctx.services.config)),
    modelsStatus: p.query(() => getModelsStatus()),
    contact: p
      .meta({ rateLimit: "auth" })
      .input(ContactInput)
      .mutation(({ ctx, input }) => submitContact(ctx, input)),
    newsletter: p
      .meta({ rateLimit: "auth" })
      .input(NewsletterInput)
      .mutation(({ ctx, input }) => subscribeNewsletter(ctx, input)),
  }),
  health: router({
    db: p.query(({ ctx }) => dbHealth(ctx)),
    signupTest: p.query(({ ctx }) => signupSelfTest(ctx)),
  }),
});

export type AppRouter = typeof appRouter;

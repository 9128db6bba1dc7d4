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
import { z } from "zod";
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
import { publicProcedure as p, router } from "./init.ts";

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
    users: p.input(AdminUserListQuery).query(({ ctx, input }) => listUsers(ctx, input)),
    user: p.input(UserId).query(({ ctx, input }) => getUser(ctx, input.id)),
    updateUser: p.input(UserId.extend({ patch: AdminUserUpdate })).mutation(({ ctx, input }) => updateUser(ctx, input.id, input.patch)),
    setUserStatus: p.input(UserId.extend(AdminStatusUpdate.shape)).mutation(({ ctx, input }) => setUserStatus(ctx, input.id, input)),
    grantCredits: p.input(UserId.extend(AdminCreditGrant.shape)).mutation(({ ctx, input }) => grantCredits(ctx, input.id, input)),
    resetPassword: p.input(AdminResetPassword).mutation(({ ctx, input }) => resetPassword(ctx, input)),
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

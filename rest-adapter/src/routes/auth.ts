import {
  ApiKeyCreated,
  ApiKeyRevoked,
  ApiKeyStatus,
  AuthCredentials,
  AuthResponse,
  ChangePasswordInput,
  CreditBalance,
  ProviderPreferenceInput,
  ProviderPreferenceResult,
  UserProfile,
  UserSession,
} from "@adgen/schema";
import { generateApiKey, getApiKeyStatus, revokeApiKey } from "@adgen/server/modules/api-keys/api-keys.ts";
import { clearedSessionCookie, sessionCookie } from "@adgen/server/http/cookies.ts";
import { getSession } from "@adgen/server/modules/auth/get-session.ts";
import { login } from "@adgen/server/modules/auth/login.ts";
import { logout } from "@adgen/server/modules/auth/logout.ts";
import { signup } from "@adgen/server/modules/auth/signup.ts";
import {
  changePassword,
  getCreditBalance,
  getProfile,
  getProviderPreference,
  setProviderPreference,
} from "@adgen/server/modules/users/account.ts";
import { z } from "zod";
import { route } from "../route.ts";

export const authRoutes = [
  route({
    method: "POST",
    path: "/auth/signup",
    operation: "auth.signup",
    tag: "Auth",
    auth: "public",
    rateLimit: "auth",
    summary: "Create an account (trial plan, signup credits) and sign in; sets the session cookie",
    body: AuthCredentials,
    response: AuthResponse,
    errors: { 409: "E-mail already registered" },
    handler: async (ctx, { body }, res) => {
      const { user, session } = await signup(ctx, body as z.input<typeof AuthCredentials>);
      res.setCookie(sessionCookie(session.jwt, session.expiresAt));
      return user;
    },
  }),
  route({
    method: "POST",
    path: "/auth/login",
    operation: "auth.login",
    tag: "Auth",
    auth: "public",
    rateLimit: "auth",
    summary: "Sign in; sets the session cookie",
    body: AuthCredentials,
    response: AuthResponse,
    errors: { 401: "Invalid email or password", 403: "Account suspended" },
    handler: async (ctx, { body }, res) => {
      const { user, session } = await login(ctx, body as z.input<typeof AuthCredentials>);
      res.setCookie(sessionCookie(session.jwt, session.expiresAt));
      return user;
    },
  }),
  route({
    method: "GET",
    path: "/auth/session",
    operation: "auth.session",
    tag: "Auth",
    auth: "user",
    summary: "The current session",
    response: UserSession,
    handler: (ctx) => getSession(ctx),
  }),
  route({
    method: "POST",
    path: "/auth/logout",
    operation: "auth.logout",
    tag: "Auth",
    auth: "user",
    summary: "Revoke the session at once and clear the cookie",
    response: z.object({ loggedOut: z.literal(true) }),
    handler: async (ctx, _input, res) => {
      const result = await logout(ctx);
      res.setCookie(clearedSessionCookie());
      return result;
    },
  }),
  route({
    method: "GET",
    path: "/user/profile",
    operation: "user.profile",
    tag: "User",
    auth: "user",
    summary: "The signed-in account",
    response: UserProfile,
    handler: (ctx) => getProfile(ctx),
  }),
  route({
    method: "GET",
    path: "/user/credits",
    operation: "user.credits",
    tag: "User",
    auth: "user",
    summary: "Credit balance",
    response: CreditBalance,
    handler: (ctx) => getCreditBalance(ctx),
  }),
  route({
    method: "POST",
    path: "/user/change-password",
    operation: "user.changePassword",
    tag: "User",
    auth: "user",
    rateLimit: "auth",
    summary: "Change the password; other sessions of the account end",
    body: ChangePasswordInput,
    response: z.object({ changed: z.literal(true) }),
    handler: (ctx, { body }) => changePassword(ctx, body as z.input<typeof ChangePasswordInput>),
  }),
  route({
    method: "GET",
    path: "/user/provider-preference",
    operation: "user.providerPreference",
    tag: "User",
    auth: "user",
    summary: "Preferred generation provider",
    response: ProviderPreferenceResult,
    handler: (ctx) => getProviderPreference(ctx),
  }),
  route({
    method: "POST",
    path: "/user/provider-preference",
    operation: "user.setProviderPreference",
    tag: "User",
    auth: "user",
    summary: "Set the preferred generation provider",
    body: ProviderPreferenceInput,
    response: ProviderPreferenceResult,
    handler: (ctx, { body }) => setProviderPreference(ctx, body as z.input<typeof ProviderPreferenceInput>),
  }),
  route({
    method: "GET",
    path: "/user/api-key",
    operation: "user.apiKey",
    tag: "User",
    auth: "user",
    summary: "Whether the account has an API key and whether its plan allows one",
    response: ApiKeyStatus,
    handler: (ctx) => getApiKeyStatus(ctx),
  }),
  route({
    method: "POST",
    path: "/user/api-key",
    operation: "user.generateApiKey",
    tag: "User",
    auth: "user",
    summary: "Generate an API key (Agency and Enterprise plans); shown once, replaces any earlier key",
    response: ApiKeyCreated,
    errors: { 403: "Plan does not support API keys" },
    handler: (ctx) => generateApiKey(ctx),
  }),
  route({
    method: "DELETE",
    path: "/user/api-key",
    operation: "user.revokeApiKey",
    tag: "User",
    auth: "user",
    summary: "Revoke the account's API key",
    response: ApiKeyRevoked,
    handler: (ctx) => revokeApiKey(ctx),
  }),
];

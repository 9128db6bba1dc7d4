// auth.*: accounts signing up, in and out, and the current session.
import { AuthCredentials, LoggedOut, SignedInAnswer, UserSession } from "@adgen/schema";
import type { z } from "zod";
import { clearedSessionCookie, sessionCookie } from "./session-cookie.ts";
import { getSession } from "../modules/auth/get-session.ts";
import { login } from "../modules/auth/login.ts";
import { logout } from "../modules/auth/logout.ts";
import { type SessionClient, type SignedIn, signup } from "../modules/auth/signup.ts";
import type { RequestContext } from "../request-context.ts";
import { defineOperation, NoInput, type OperationCall } from "./operation.ts";
import { actingAccount, signedIn } from "./signed-in.ts";

/** Browsers (REST, tRPC) keep the session in the HttpOnly cookie; other clients get the token in the answer. */
function deliverSession(call: OperationCall, { user, session }: SignedIn): z.output<typeof SignedInAnswer> {
  if (call.credentials === "cookie") {
    call.setCookie(sessionCookie(session.jwt, session.expiresAt));
    return user;
  }
  return { ...user, token: session.jwt, expiresAt: session.expiresAt.toISOString() };
}

/** The client a new session is for, as the session keeps it. */
const clientOf = (ctx: RequestContext): SessionClient => ({ ip: ctx.ip, userAgent: ctx.userAgent });

export const authOperations = {
  signup: defineOperation({
    summary: "Create an account (trial plan, signup credits) and sign in; sets the session cookie",
    access: "public",
    kind: "mutation",
    rateLimit: "auth",
    input: AuthCredentials,
    output: SignedInAnswer,
    rest: { method: "POST", path: "/auth/signup", tag: "Auth", errors: { 409: "E-mail already registered" } },
    handler: async (ctx, input, call) => deliverSession(call, await signup(ctx.services, clientOf(ctx), input)),
  }),
  login: defineOperation({
    summary: "Sign in; sets the session cookie",
    access: "public",
    kind: "mutation",
    rateLimit: "auth",
    input: AuthCredentials,
    output: SignedInAnswer,
    rest: { method: "POST", path: "/auth/login", tag: "Auth", errors: { 401: "Invalid email or password", 403: "Account suspended" } },
    handler: async (ctx, input, call) => deliverSession(call, await login(ctx.services, clientOf(ctx), input)),
  }),
  session: defineOperation({
    summary: "The current session",
    access: "user",
    kind: "query",
    input: NoInput,
    output: UserSession,
    rest: { method: "GET", path: "/auth/session", tag: "Auth" },
    handler: (ctx) => getSession(signedIn(ctx), ctx.auth?.session ?? null),
  }),
  currentSession: defineOperation({
    summary: "The current session, or null when signed out: asking who is signed in is not an error",
    access: "public",
    kind: "query",
    input: NoInput,
    output: UserSession.nullable(),
    rest: { method: "GET", path: "/auth/current-session", tag: "Auth", errors: { 403: "Account suspended" } },
    // Signed out answers null (no 401, which browsers log as a failed request on every public page);
    // a suspended account still gets its 403 from getSession.
    handler: (ctx) => (ctx.auth ? getSession(ctx.auth.user, ctx.auth.session) : null),
  }),
  logout: defineOperation({
    summary: "Revoke the session at once and clear the cookie",
    access: "user",
    kind: "mutation",
    input: NoInput,
    output: LoggedOut,
    rest: { method: "POST", path: "/auth/logout", tag: "Auth" },
    handler: async (ctx, _input, call) => {
      const result = await logout(ctx.services, actingAccount(ctx), ctx.auth?.method ?? "session", ctx.auth?.session?.id ?? null);
      if (call.credentials === "cookie") call.setCookie(clearedSessionCookie());
      return result;
    },
  }),
};

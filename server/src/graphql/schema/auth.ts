import type { AuthResponse, UserSession } from "@adgen/schema";
import { getSession } from "../../modules/auth/get-session.ts";
import { login } from "../../modules/auth/login.ts";
import { logout } from "../../modules/auth/logout.ts";
import { type SignedIn, signup } from "../../modules/auth/signup.ts";
import { enforceRateLimit } from "../../rate-limit/enforce.ts";
import { builder, RoleEnum } from "../builder.ts";

const AuthUserRef = builder.objectRef<AuthResponse>("AuthUser").implement({
  fields: (t) => ({ id: t.exposeID("id"), email: t.exposeString("email"), role: t.field({ type: RoleEnum, resolve: (u) => u.role }) }),
});

const AuthPayloadRef = builder.objectRef<SignedIn>("AuthPayload").implement({
  description: "The account and a session token to send as `Authorization: Bearer <token>`.",
  fields: (t) => ({
    user: t.field({ type: AuthUserRef, resolve: (p) => p.user }),
    token: t.string({ resolve: (p) => p.session.jwt }),
    expiresAt: t.field({ type: "DateTime", resolve: (p) => p.session.expiresAt.toISOString() }),
  }),
});

const SessionRef = builder.objectRef<UserSession>("Session").implement({
  fields: (t) => ({
    userId: t.exposeID("userId"),
    email: t.exposeString("email"),
    role: t.field({ type: RoleEnum, resolve: (s) => s.role }),
    expiresAt: t.exposeInt("expiresAt", { description: "Unix timestamp (seconds)" }),
    trialEndsAt: t.field({ type: "DateTime", nullable: true, resolve: (s) => s.trialEndsAt }),
  }),
});

builder.queryFields((t) => ({
  session: t.field({ type: SessionRef, resolve: (_, __, ctx) => getSession(ctx) }),
}));

builder.mutationFields((t) => ({
  signup: t.field({
    type: AuthPayloadRef,
    args: { email: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    resolve: async (_, args, ctx) => {
      await enforceRateLimit(ctx, "auth", "auth.signup");
      return signup(ctx, args);
    },
  }),
  login: t.field({
    type: AuthPayloadRef,
    args: { email: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    resolve: async (_, args, ctx) => {
      await enforceRateLimit(ctx, "auth", "auth.login");
      return login(ctx, args);
    },
  }),
  logout: t.boolean({ resolve: async (_, __, ctx) => (await logout(ctx)).loggedOut }),
}));

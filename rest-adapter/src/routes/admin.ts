import {
  AdminCreditGrant,
  AdminCreditGrantResult,
  AdminResetPassword,
  AdminStatusUpdate,
  AdminUser,
  AdminUserList,
  AdminUserListQuery,
  AdminUserUpdate,
} from "@adgen/schema";
import { getUser, grantCredits, listUsers, resetPassword, setUserStatus, updateUser } from "@adgen/server/modules/admin/users.ts";
import { z } from "zod";
import { route } from "../route.ts";

const admin = { tag: "Admin", auth: "admin", errors: { 403: "admin access required" } } as const;
const userNotFound = { 403: "admin access required", 404: "User not found" };

export const adminRoutes = [
  route({
    ...admin,
    method: "GET",
    path: "/admin/users",
    operation: "admin.users",
    summary: "Accounts, newest first, paginated; `search` matches part of the e-mail",
    query: AdminUserListQuery,
    response: AdminUserList,
    handler: (ctx, { query }) => listUsers(ctx, query),
  }),
  route({
    ...admin,
    method: "GET",
    path: "/admin/users/{id}",
    operation: "admin.user",
    errors: userNotFound,
    summary: "One account",
    response: AdminUser,
    handler: (ctx, { params }) => getUser(ctx, params.id ?? ""),
  }),
  route({
    ...admin,
    method: "PATCH",
    path: "/admin/users/{id}",
    operation: "admin.updateUser",
    errors: userNotFound,
    summary: "Update role, status, current_plan_id, trial_ends_at or provider_preference (nothing else is writable)",
    body: AdminUserUpdate,
    response: AdminUser,
    handler: (ctx, { params, body }) => updateUser(ctx, params.id ?? "", body as z.input<typeof AdminUserUpdate>),
  }),
  route({
    ...admin,
    method: "PATCH",
    path: "/admin/users/{id}/status",
    operation: "admin.setUserStatus",
    errors: userNotFound,
    summary: "Suspend (ends the account's live sessions) or reactivate an account",
    body: AdminStatusUpdate,
    response: AdminUser,
    handler: (ctx, { params, body }) => setUserStatus(ctx, params.id ?? "", body as z.input<typeof AdminStatusUpdate>),
  }),
  route({
    ...admin,
    method: "POST",
    path: "/admin/users/{id}/credits",
    operation: "admin.grantCredits",
    errors: userNotFound,
    summary: "Add (positive) or remove (negative) credits through the ledger; never below zero",
    body: AdminCreditGrant,
    response: AdminCreditGrantResult,
    handler: (ctx, { params, body }) => grantCredits(ctx, params.id ?? "", body as z.input<typeof AdminCreditGrant>),
  }),
  route({
    ...admin,
    method: "POST",
    path: "/admin/reset-password",
    operation: "admin.resetPassword",
    errors: userNotFound,
    summary: "Set a new password for an account and end its sessions",
    body: AdminResetPassword,
    response: z.object({ userId: z.string(), reset: z.literal(true) }),
    handler: (ctx, { body }) => resetPassword(ctx, body as z.input<typeof AdminResetPassword>),
  }),
];

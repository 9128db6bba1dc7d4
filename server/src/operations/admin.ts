// admin.*: account administration. Every one answers 403 `admin access required` to a non-admin.
import {
  ActivityPage,
  ActivityQuery,
  AdminFunnel,
  AdminHealth,
  AdminPeriodQuery,
  AdminRevenue,
  AdminRevenueQuery,
  AdminStats,
  AdminSystem,
  Agent,
  AgentIdParam,
  AgentList,
  IntegrityReport,
  LeadAddResult,
  LeadInput,
  LeadList,
  LeadListQuery,
  MarketingRequest,
  MarketingStatus,
  SystemSettingsUpdate,
  SystemSettingsView,
  AdminCreditGrant,
  AdminCreditGrantResult,
  AdminResetPassword,
  AdminStatusUpdate,
  AdminUser,
  AdminUserList,
  AdminUserListQuery,
  AdminUserUpdateRequest,
  UserIdParam,
} from "@adgen/schema";
import { z } from "zod";
import { getUser, grantCredits, listUsers, resetPassword, setUserStatus, updateUser } from "../modules/admin/users.ts";
import { adminActivity } from "../modules/admin/activity.ts";
import { listAgents, triggerAgent } from "../modules/agents/agents.ts";
import { adminFunnel } from "../modules/admin/funnel.ts";
import { adminHealth } from "../modules/admin/health-report.ts";
import { addLead, listLeads } from "../modules/admin/leads.ts";
import { generateMarketing, marketingStatus } from "../modules/admin/marketing.ts";
import { adminRevenue } from "../modules/admin/revenue.ts";
import { getSettings, updateSettings } from "../modules/settings/settings.ts";
import { adminStats } from "../modules/admin/stats.ts";
import { adminSystem } from "../modules/admin/system.ts";
import { checkIntegrity } from "../modules/integrity/integrity.ts";
import { auditSourceOf } from "../request-context.ts";
import { defineOperation, NoInput } from "./operation.ts";
import { actingAccount } from "./signed-in.ts";

const admin = { access: "admin" } as const;
const rest = { tag: "Admin", errors: { 403: "admin access required" } } as const;
const userNotFound = { 403: "admin access required", 404: "User not found" };

export const adminOperations = {
  users: defineOperation({
    ...admin,
    summary: "Accounts, newest first, paginated; `search` matches part of the e-mail",
    kind: "query",
    input: AdminUserListQuery,
    output: AdminUserList,
    rest: { ...rest, method: "GET", path: "/admin/users" },
    handler: (ctx, input) => listUsers(ctx.services, input),
  }),
  user: defineOperation({
    ...admin,
    summary: "One account",
    kind: "query",
    input: UserIdParam,
    output: AdminUser,
    rest: { ...rest, method: "GET", path: "/admin/users/{id}", errors: userNotFound },
    handler: (ctx, input) => getUser(ctx.services, input.id),
  }),
  updateUser: defineOperation({
    ...admin,
    summary: "Update role, status, current_plan_id, trial_ends_at or provider_preference (nothing else is writable)",
    kind: "mutation",
    input: AdminUserUpdateRequest,
    output: AdminUser,
    rest: { ...rest, method: "PATCH", path: "/admin/users/{id}", errors: userNotFound },
    handler: (ctx, { id, ...patch }) => updateUser(ctx.services, actingAccount(ctx), id, patch),
  }),
  setUserStatus: defineOperation({
    ...admin,
    summary: "Suspend (ends the account's live sessions) or reactivate an account",
    kind: "mutation",
    input: UserIdParam.extend(AdminStatusUpdate.shape),
    output: AdminUser,
    rest: { ...rest, method: "PATCH", path: "/admin/users/{id}/status", errors: userNotFound },
    handler: (ctx, { id, ...input }) => setUserStatus(ctx.services, actingAccount(ctx), id, input),
  }),
  grantCredits: defineOperation({
    ...admin,
    summary: "Add (positive) or remove (negative) credits through the ledger; never below zero",
    kind: "mutation",
    input: UserIdParam.extend(AdminCreditGrant.shape),
    output: AdminCreditGrantResult,
    rest: { ...rest, method: "POST", path: "/admin/users/{id}/credits", errors: userNotFound },
    handler: (ctx, { id, ...input }) => grantCredits(ctx.services, actingAccount(ctx), id, input),
  }),
  resetPassword: defineOperation({
    ...admin,
    summary: "Set a new password for an account and end its sessions",
    kind: "mutation",
    input: AdminResetPassword,
    output: z.object({ userId: z.string(), reset: z.literal(true) }),
    rest: { ...rest, method: "POST", path: "/admin/reset-password", errors: userNotFound },
    handler: (ctx, input) => resetPassword(ctx.services, auditSourceOf(ctx), input),
  }),
  stats: defineOperation({
    ...admin,
    summary: "Accounts by plan and status, jobs launched by type and status, credits granted and used, over a period (default 30 days)",
    kind: "query",
    input: AdminPeriodQuery,
    output: AdminStats,
    rest: { ...rest, method: "GET", path: "/admin/stats" },
    handler: (ctx, input) => adminStats(ctx.services, auditSourceOf(ctx), input),
  }),
  revenue: defineOperation({
    ...admin,
    summary: "Paid orders in a period by provider, plan and pack, and as a series by `interval` (day, week or month)",
    kind: "query",
    input: AdminRevenueQuery,
    output: AdminRevenue,
    rest: { ...rest, method: "GET", path: "/admin/revenue" },
    handler: (ctx, input) => adminRevenue(ctx.services, auditSourceOf(ctx), input),
  }),
  funnel: defineOperation({
    ...admin,
    summary: "Of a period's signups: how many signed in, used the studio, had an ad made and purchased, with the conversion between stages",
    kind: "query",
    input: AdminPeriodQuery,
    output: AdminFunnel,
    rest: { ...rest, method: "GET", path: "/admin/funnel" },
    handler: (ctx, input) => adminFunnel(ctx.services, auditSourceOf(ctx), input),
  }),
  leads: defineOperation({
    ...admin,
    summary: "Leads, newest first, paginated; `search` matches part of the e-mail, name or company",
    kind: "query",
    input: LeadListQuery,
    output: LeadList,
    rest: { ...rest, method: "GET", path: "/admin/leads" },
    handler: (ctx, input) => listLeads(ctx.services, auditSourceOf(ctx), input),
  }),
  addLead: defineOperation({
    ...admin,
    summary: "Adds a lead; an e-mail already listed adds nothing (`created: false`, its empty fields filled in)",
    kind: "mutation",
    input: LeadInput,
    output: LeadAddResult,
    rest: { ...rest, method: "POST", path: "/admin/leads" },
    handler: (ctx, input) => addLead(ctx.services, actingAccount(ctx), input),
  }),
  agents: defineOperation({
    ...admin,
    summary:
      "The four background agents (review expiry, orphaned-job recovery, webhook retries, performance decay): last run, next run, status, last error",
    kind: "query",
    input: NoInput,
    output: AgentList,
    rest: { ...rest, method: "GET", path: "/admin/agents" },
    handler: (ctx) => listAgents(ctx.services, auditSourceOf(ctx)),
  }),
  triggerAgent: defineOperation({
    ...admin,
    summary: "Runs one agent now and answers its state after the run",
    kind: "mutation",
    input: AgentIdParam,
    output: Agent,
    rest: {
      ...rest,
      method: "POST",
      path: "/admin/agents/{agentId}/trigger",
      from: "query",
      errors: { 403: "admin access required", 404: "Agent not found" },
    },
    handler: (ctx, input) => triggerAgent(ctx.services, auditSourceOf(ctx), input.agentId),
  }),
  settings: defineOperation({
    ...admin,
    summary:
      "System settings in force (signup credits, trial days, maintenance mode, feature flags), where each comes from, and the defaults",
    kind: "query",
    input: NoInput,
    output: SystemSettingsView,
    rest: { ...rest, method: "GET", path: "/admin/settings" },
    handler: (ctx) => getSettings(ctx.services, auditSourceOf(ctx)),
  }),
  updateSettings: defineOperation({
    ...admin,
    summary: "Changes any of the system settings (validated, audited with the values before and after)",
    kind: "mutation",
    input: SystemSettingsUpdate,
    output: SystemSettingsView,
    rest: { ...rest, method: "POST", path: "/admin/settings" },
    handler: (ctx, input) => updateSettings(ctx.services, actingAccount(ctx), input),
  }),
  system: defineOperation({
    ...admin,
    summary: "Queue depths and states, workers, scheduled tasks and storage use",
    kind: "query",
    input: NoInput,
    output: AdminSystem,
    rest: { ...rest, method: "GET", path: "/admin/system" },
    handler: (ctx) => adminSystem(ctx.services, auditSourceOf(ctx)),
  }),
  health: defineOperation({
    ...admin,
    summary: "Database, queue, storage, ffmpeg and providers, each checked now with its status and latency",
    kind: "query",
    input: NoInput,
    output: AdminHealth,
    rest: { ...rest, method: "GET", path: "/admin/health" },
    handler: (ctx) => adminHealth(ctx.services, auditSourceOf(ctx)),
  }),
  activity: defineOperation({
    ...admin,
    summary: "The audit trail, newest first, paginated; filter by account (`userId`), `action` (or a prefix ending in `.`) and dates",
    kind: "query",
    input: ActivityQuery,
    output: ActivityPage,
    rest: { ...rest, method: "GET", path: "/admin/activity" },
    handler: (ctx, input) => adminActivity(ctx.services, auditSourceOf(ctx), input),
  }),
  marketing: defineOperation({
    ...admin,
    summary: "The internal marketing runs (blog draft, self-marketing ad, lead list), newest first, with their output",
    kind: "query",
    input: NoInput,
    output: MarketingStatus,
    rest: { ...rest, method: "GET", path: "/admin/marketing/generate" },
    handler: (ctx) => marketingStatus(ctx.services, auditSourceOf(ctx)),
  }),
  generateMarketing: defineOperation({
    ...admin,
    summary: "Launches internal marketing workflows: `kinds` among blog, ad (rendered on the house account), leads (default all three)",
    kind: "mutation",
    input: MarketingRequest,
    output: MarketingStatus,
    rest: { ...rest, method: "POST", path: "/admin/marketing/generate" },
    handler: (ctx, input) => generateMarketing(ctx.services, actingAccount(ctx), input),
  }),
  integrity: defineOperation({
    ...admin,
    summary:
      "Integrity report: ledger sum = balance per account, orphaned and missing media, jobs stuck past their lease, refunds without a charge",
    kind: "query",
    input: NoInput,
    output: IntegrityReport,
    rest: { ...rest, method: "GET", path: "/integrity" },
    handler: (ctx) => checkIntegrity(ctx.services, auditSourceOf(ctx)),
  }),
};

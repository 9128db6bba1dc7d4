// accountFlags.*: the admin's list of flagged accounts (a refund or chargeback found the credits already
// spent) and resolving one with a note. Both answer 403 `admin access required` to a non-admin.
import { AccountFlagList, AccountFlagListQuery, AccountFlagResolveInput, AccountFlagView } from "@adgen/schema";
import { listAccountFlags, resolveAccountFlag } from "../modules/billing/account-flags.ts";
import { auditSourceOf } from "../request-context.ts";
import { defineOperation } from "./operation.ts";
import { actingAccount } from "./signed-in.ts";

const tag = "Admin";
const adminErrors = { 403: "admin access required" };

export const accountFlagsOperations = {
  list: defineOperation({
    summary: "Account flags, newest first, paginated: `status` open (default), resolved or all; `userId` one account's",
    access: "admin",
    kind: "query",
    input: AccountFlagListQuery,
    output: AccountFlagList,
    rest: { method: "GET", path: "/admin/flags", tag, errors: adminErrors },
    handler: (ctx, input) => listAccountFlags(ctx.services, auditSourceOf(ctx), input),
  }),
  resolve: defineOperation({
    summary: "Mark an account flag resolved, with a note saying what was done (audited)",
    access: "admin",
    kind: "mutation",
    input: AccountFlagResolveInput,
    output: AccountFlagView,
    rest: {
      method: "PATCH",
      path: "/admin/flags",
      tag,
      errors: { ...adminErrors, 404: "Account flag not found", 409: "This flag was already resolved" },
    },
    handler: (ctx, input) => resolveAccountFlag(ctx.services, actingAccount(ctx), input),
  }),
};

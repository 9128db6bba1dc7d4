// health.*: liveness for balancers, and deeper checks for signed-in operators.
import { DbHealth, Health, SignupTestResult } from "@adgen/schema";
import { dbHealth, health, signupSelfTest } from "../modules/health/health.ts";
import { defineOperation, NoInput } from "./operation.ts";

export const healthOperations = {
  check: defineOperation({
    summary: "Liveness: status and time, no internals (HEAD answers without a body)",
    access: "public",
    kind: "query",
    input: NoInput,
    output: Health,
    rest: { method: "GET", path: "/health", tag: "Health", documentHead: true },
    handler: (ctx) => health(ctx.services),
  }),
  db: defineOperation({
    summary: "Database connectivity and response time",
    access: "user",
    kind: "query",
    input: NoInput,
    output: DbHealth,
    rest: { method: "GET", path: "/health/db", tag: "Health" },
    handler: (ctx) => dbHealth(ctx.services),
  }),
  signupTest: defineOperation({
    summary: "Runs signup → login → session on a throwaway account, removes it, reports each step and its time",
    access: "user",
    // SPEC: any signed-in account may run it ("Auth", not "Admin"). It hashes two passwords, like a signup
    // and a login, so it counts in their class: per client IP, however many accounts ask.
    rateLimit: "auth",
    kind: "query",
    input: NoInput,
    output: SignupTestResult,
    rest: { method: "GET", path: "/health/signup-test", tag: "Health" },
    handler: (ctx) => signupSelfTest(ctx.services, ctx.ip),
  }),
};

import { randomUUID } from "node:crypto";
import type { Services } from "../../request-context.ts";
import { authenticate } from "../auth/authenticate.ts";
import { getSession } from "../auth/get-session.ts";
import { login } from "../auth/login.ts";
import { signup } from "../auth/signup.ts";

/** Public liveness: status and time only, no internals. */
export function health(services: Services) {
  return { status: "ok", timestamp: new Date().toISOString(), version: services.config.version };
}

export async function dbHealth(services: Services) {
  const started = performance.now();
  let status: "ok" | "error" = "ok";
  try {
    await services.db.sql.query("SELECT 1");
  } catch {
    status = "error";
  }
  return {
    status,
    engine: services.db.engine,
    responseTimeMs: Math.round((performance.now() - started) * 100) / 100,
    timestamp: new Date().toISOString(),
  };
}

/**
 * Runs the real signup → login → session path on a throwaway account, then removes the account.
 * Each step reports whether it worked and how long it took. `ip` is the address asking (the probe's sessions keep it).
 */
export async function signupSelfTest(services: Services, ip: string | null) {
  const email = `signup-test-${randomUUID()}@healthcheck.invalid`;
  const password = randomUUID();
  const steps: { step: string; ok: boolean; ms: number; error?: string }[] = [];
  const probe = { ip, userAgent: "signup-self-test" };
  const t0 = performance.now();
  const run = async <T>(step: string, fn: () => Promise<T>): Promise<T | undefined> => {
    const started = performance.now();
    try {
      const value = await fn();
      steps.push({ step, ok: true, ms: Math.round(performance.now() - started) });
      return value;
    } catch (error) {
      steps.push({ step, ok: false, ms: Math.round(performance.now() - started), error: (error as Error).message });
      return undefined;
    }
  };
  try {
    const created = await run("signup", () => signup(services, probe, { email, password }));
    const signedIn = created && (await run("login", () => login(services, probe, { email, password })));
    if (signedIn) {
      await run("session", async () => {
        const auth = await authenticate(services, { authorization: `Bearer ${signedIn.session.jwt}` });
        if (!auth) throw new Error("the new session did not authenticate");
        return getSession(auth.user, auth.session);
      });
    }
  } finally {
    await run("cleanup", async () => {
      await services.prisma.user.deleteMany({ where: { email } });
    });
  }
  return { success: steps.every((s) => s.ok), totalMs: Math.round(performance.now() - t0), steps };
}

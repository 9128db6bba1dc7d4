// Accounts for tests: sign up through the public REST API (as a user would) and sign in the bootstrapped admin.
import { expect } from "vitest";
import { RestClient, uniqueEmail } from "./clients.ts";
import type { TestApp } from "./harness.ts";

export const PASSWORD = "correct horse battery";

/** Env that makes start-up bootstrap an admin account (CONTRACT: ADMIN_EMAIL, ADMIN_PASSWORD). */
export const ADMIN_ENV = { ADMIN_EMAIL: "Root.Admin@Example.com", ADMIN_PASSWORD: "admin-password-1" } as const;
export const ADMIN_EMAIL = ADMIN_ENV.ADMIN_EMAIL.toLowerCase();

export interface Account {
  client: RestClient;
  id: string;
  email: string;
  password: string;
  /** The session JWT from the cookie. */
  jwt: string;
}

export async function signUp(app: TestApp, prefix = "user", password = PASSWORD): Promise<Account> {
  const client = new RestClient(app.url);
  const email = uniqueEmail(prefix).toLowerCase();
  const res = await client.post("/auth/signup", { email, password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { client, id: res.body.data.id, email, password, jwt: client.cookie! };
}

/** A fresh session of an existing account (a second browser). */
export async function logIn(app: TestApp, email: string, password: string): Promise<RestClient> {
  const client = new RestClient(app.url);
  const res = await client.post("/auth/login", { email, password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return client;
}

export async function adminClient(app: TestApp): Promise<RestClient> {
  return logIn(app, ADMIN_EMAIL, ADMIN_ENV.ADMIN_PASSWORD);
}

/** Polls until `check` passes (for effects that land asynchronously, e.g. a subscription becoming live). */
export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/**
 * Resolves when the next subscriber attaches to the event bus, i.e. once a subscription opened after
 * this call is live and will see events published from then on. Works for any EventBus implementation.
 */
export function nextBusSubscription(app: { services: Pick<TestApp["services"], "events"> }): Promise<void> {
  const bus = app.services.events;
  const original = bus.subscribe;
  return new Promise((resolve) => {
    bus.subscribe = (listener) => {
      bus.subscribe = original;
      const unsubscribe = original.call(bus, listener);
      resolve();
      return unsubscribe;
    };
  });
}

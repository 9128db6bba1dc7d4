// Two instances of the service on one PostgreSQL database, as in production behind a balancer.
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/env.ts";
import { listen, type RunningServer } from "../src/http/app.ts";
import { createServices, type ServiceHandle } from "../src/services.ts";
import { RestClient, uniqueEmail } from "../test/support/clients.ts";
import { testDatabase } from "../test/support/harness.ts";

interface Instance {
  services: ServiceHandle;
  server: RunningServer;
}

let drop: () => Promise<void>;
const instances: Instance[] = [];
const secret = randomBytes(32).toString("hex");

beforeAll(async () => {
  const db = await testDatabase();
  drop = db.drop;
  // Both start at once: the migration lock makes them take turns on the empty database.
  const started = await Promise.all(
    [0, 1].map(async () => {
      const config = loadConfig(
        {
          DATA_DIR: mkdtempSync(join(tmpdir(), "adgen-multi-")),
          SESSION_SECRET: secret,
          RATE_LIMIT_AUTH_PER_HOUR: "4",
          ADMIN_EMAIL: "root@example.com",
          ADMIN_PASSWORD: "root-password-1",
        },
        { database: db.target },
      );
      const services = await createServices(config);
      return { services, server: await listen(services, 0, "127.0.0.1") };
    }),
  );
  instances.push(...started);
});

afterAll(async () => {
  for (const instance of instances) {
    await instance.server.close();
    await instance.services.close();
  }
  await drop?.();
});

describe("several instances on one PostgreSQL", () => {
  it("applied each migration once although both started together", async () => {
    const rows = await instances[0]!.services.db.sql.query<{ migration_name: string; n: number }>(
      `SELECT migration_name, count(*)::int AS n FROM "_prisma_migrations" GROUP BY migration_name`,
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.n === 1)).toBe(true);
  });

  it("a session created on one instance works on the other, and logout on the other revokes it", async () => {
    const [a, b] = instances;
    const onA = new RestClient(a!.server.url);
    const email = uniqueEmail("multi");
    expect((await onA.post("/auth/signup", { email, password: "password123" })).status).toBe(200);
    const onB = new RestClient(b!.server.url);
    onB.cookie = onA.cookie;
    expect((await onB.get("/user/profile")).body.data.email).toBe(email);
    expect((await onB.post("/auth/logout")).status).toBe(200);
    onB.cookie = onA.cookie;
    expect((await onA.get("/user/profile")).status).toBe(401);
  });

  it("counts the auth rate limit once across both instances", async () => {
    const [a, b] = instances;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const client = new RestClient((i % 2 === 0 ? a : b)!.server.url);
      const res = await client.post("/auth/login", { email: "nobody-multi@example.com", password: "password123" });
      statuses.push(res.status);
      expect(res.headers.get("x-ratelimit-limit")).toBe("4");
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
  });

  it("delivers an account event published on one instance to a subscriber on the other", async () => {
    const [a, b] = instances;
    const received: unknown[] = [];
    const unsubscribe = b!.services.events.subscribe((event) => received.push(event));
    a!.services.events.publish({ kind: "account.balance", userId: "u-1", data: { balance: 5, delta: 5, reason: "test" } });
    const deadline = Date.now() + 5000;
    while (received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    unsubscribe();
    expect(received).toEqual([
      expect.objectContaining({ kind: "account.balance", userId: "u-1", data: { balance: 5, delta: 5, reason: "test" } }),
    ]);
  });
});

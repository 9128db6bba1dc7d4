// A refused admin call is audited: a signed-in non-admin calling an admin operation still gets 403
// `admin access required` (REST, GraphQL, tRPC), and an `admin.denied` row names the caller, the operation
// and the IP, which an admin reads through GET /api/admin/activity. Repeats within a minute are coalesced
// into that one row, so a caller hammering the gate cannot fill the table; anonymous calls stay 401.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, ADMIN_ENV, adminClient, eventually, signUp } from "./support/accounts.ts";
import { graphql, type RestClient, trpcClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let admin: RestClient;
let user: Account;

beforeAll(async () => {
  app = await startTestApp({ ...ADMIN_ENV });
  admin = await adminClient(app);
  user = await signUp(app, "not-admin");
});
afterAll(() => app?.close());

async function deniedRows(userId: string) {
  const res = await admin.get(`/admin/activity?action=admin.denied&userId=${userId}&pageSize=100`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.entries as {
    actorId: string;
    actorEmail: string;
    action: string;
    targetType: string;
    targetId: string;
    ip: string;
    metadata: any;
  }[];
}
const rowsFor = async (userId: string, operation: string) =>
  (await deniedRows(userId)).filter((row) => row.metadata.operation === operation);

describe("a refused admin call", () => {
  it("on REST answers 403 and leaves an admin.denied row an admin can read", async () => {
    const res = await user.client.get("/admin/stats");
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ success: false, error: "admin access required" });
    const [row] = await eventually(async () => {
      const rows = await rowsFor(user.id, "admin.stats");
      expect(rows).toHaveLength(1);
      return rows;
    });
    expect(row).toMatchObject({
      action: "admin.denied",
      actorId: user.id,
      actorEmail: user.email,
      targetType: "operation",
      targetId: "admin.stats",
      ip: "127.0.0.1",
      metadata: { operation: "admin.stats", ip: "127.0.0.1", requestId: res.requestId },
    });
  });

  it("on GraphQL answers 403 and leaves an admin.denied row", async () => {
    const res = await graphql(app.url, 'mutation { adminAddLead(email: "lead@example.com") { created } }', {}, user.jwt);
    expect(res.body.errors?.[0]).toMatchObject({ message: "admin access required", extensions: { status: 403 } });
    const rows = await eventually(async () => {
      const found = await rowsFor(user.id, "admin.addLead");
      expect(found).toHaveLength(1);
      return found;
    });
    expect(rows[0]).toMatchObject({ actorId: user.id, targetId: "admin.addLead", ip: "127.0.0.1", metadata: { ip: "127.0.0.1" } });
    expect(await app.services.prisma.lead.count()).toBe(0);
  });

  it("on tRPC answers FORBIDDEN and is audited too", async () => {
    const client = trpcClient(app.url, user.jwt);
    await expect(client.admin.system.query()).rejects.toMatchObject({ message: "admin access required", data: { httpStatus: 403 } });
    await eventually(async () => expect(await rowsFor(user.id, "admin.system")).toHaveLength(1));
  });

  it("repeats within a minute write no more rows (the caller cannot fill the table), and the answer stays 403", async () => {
    const other = await signUp(app, "hammer");
    const first = await other.client.get("/admin/users");
    expect(first.status).toBe(403);
    await eventually(async () => expect(await rowsFor(other.id, "admin.users")).toHaveLength(1));
    // The decision to coalesce is taken before the 403 is answered: once these answers are in, no write is pending.
    const repeats = await Promise.all(Array.from({ length: 25 }, () => other.client.get("/admin/users")));
    expect(repeats.map((res) => res.status)).toEqual(Array(25).fill(403));
    expect(repeats.every((res) => res.body.error === "admin access required")).toBe(true);
    expect(await rowsFor(other.id, "admin.users")).toHaveLength(1);
    expect(await app.services.prisma.auditLog.count({ where: { action: "admin.denied", actorId: other.id } })).toBe(1);
    // Another operation is its own row.
    expect((await other.client.get("/admin/revenue")).status).toBe(403);
    await eventually(async () => expect(await rowsFor(other.id, "admin.revenue")).toHaveLength(1));
  });

  it("an anonymous call is 401 and writes nothing; an admin's own calls are not denials", async () => {
    const before = await app.services.prisma.auditLog.count({ where: { action: "admin.denied" } });
    const anonymous = await fetch(`${app.url}/api/admin/stats`);
    expect(anonymous.status).toBe(401);
    expect((await admin.get("/admin/stats")).status).toBe(200);
    expect(await app.services.prisma.auditLog.count({ where: { action: "admin.denied" } })).toBe(before);
  });
});

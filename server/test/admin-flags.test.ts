// The admin's view of account flags (GET and PATCH /api/admin/flags; tRPC accountFlags.*; GraphQL
// accountFlags*): a chargeback whose credits were spent flags the account; an admin sees it with the
// account's e-mail and the order in words, filters by open/resolved and account, pages, and resolves it
// with a note once (audited; again is a 409). Anyone else gets 403 `admin access required`; bad input a 400.
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changeCredits } from "../src/modules/credits/ledger.ts";
import { completedEvent, refundEvent, SECRETS, signed } from "./billing-fixtures.ts";
import { ADMIN_EMAIL, ADMIN_ENV, type Account, adminClient, signUp } from "./support/accounts.ts";
import { graphql, RestClient, trpcClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let admin: RestClient;
let adminJwt: string;
let plain: Account;

/** An account that bought pack_25 at Stripe, spent 30 of its 35 credits, then charged the payment back. */
async function flaggedAccount(prefix: string): Promise<Account> {
  const user = await signUp(app, prefix);
  const paymentId = `pi_${prefix}_${user.id}`;
  await signed(app, "stripe", JSON.stringify(completedEvent("stripe", { userId: user.id, packId: "pack_25" }, { paymentId })));
  await app.services.prisma.$transaction((tx) =>
    changeCredits(tx, { userId: user.id, delta: -30, reason: "workflow_charge", reference: "spent" }),
  );
  const chargeback = await signed(app, "stripe", JSON.stringify(refundEvent("stripe", paymentId, { chargeback: true })));
  expect(chargeback.body.data?.outcome).toBe("refunded");
  return user;
}

beforeAll(async () => {
  app = await startTestApp({ ...ADMIN_ENV, ...SECRETS });
  admin = await adminClient(app);
  adminJwt = admin.cookie!;
  plain = await signUp(app, "not-admin");
});
afterAll(() => app?.close());

describe("GET /api/admin/flags", () => {
  it("lists open flags newest first with the account's e-mail, kind, message and order, filtered by account and paged", async () => {
    const first = await flaggedAccount("flag-first");
    const second = await flaggedAccount("flag-second");
    const all = await admin.get("/admin/flags");
    expect(all.status).toBe(200);
    expect(all.body.data.openTotal).toBeGreaterThanOrEqual(2);
    const [newest] = all.body.data.flags;
    expect(newest).toMatchObject({
      userId: second.id,
      email: second.email,
      kind: "chargeback_after_spend",
      resolvedAt: null,
      resolvedByEmail: null,
      order: { description: "25-credit pack", provider: "stripe", amountCents: 2299, currency: "USD", status: "refunded" },
    });
    expect(newest.message).toMatch(/20 credits were already spent/);
    expect(newest.orderId).toBe(newest.order.id);

    const one = await admin.get(`/admin/flags?userId=${first.id}`);
    expect(one.body.data).toMatchObject({ total: 1, page: 1, totalPages: 1 });
    expect(one.body.data.flags.map((f: { email: string }) => f.email)).toEqual([first.email]);
    const paged = await admin.get("/admin/flags?pageSize=1&page=2");
    expect(paged.body.data).toMatchObject({ page: 2, pageSize: 1 });
    expect(paged.body.data.flags).toHaveLength(1);
    expect(paged.body.data.totalPages).toBe(paged.body.data.total);
    expect((await admin.get(`/admin/flags?status=resolved&userId=${first.id}`)).body.data).toMatchObject({ total: 0, flags: [] });
    const audit = await app.services.prisma.auditLog.count({ where: { action: "admin.flags_viewed" } });
    expect(audit).toBeGreaterThanOrEqual(4);
  });

  it("answers 400 in words for a bad filter or page", async () => {
    const status = await admin.get("/admin/flags?status=closed");
    expect(status.status).toBe(400);
    expect(status.body.error).toMatch(/status must be open, resolved or all/);
    const size = await admin.get("/admin/flags?pageSize=500");
    expect(size.status).toBe(400);
    expect(size.body.error).toMatch(/pageSize must be between 1 and 100/);
    expect((await admin.get("/admin/flags?page=0")).body.error).toMatch(/page must be 1 or more/);
  });

  it("answers 403 `admin access required` to a signed-in non-admin and 401 to nobody, on REST, tRPC and GraphQL", async () => {
    const rest = await plain.client.get("/admin/flags");
    expect(rest).toMatchObject({ status: 403, body: { success: false, error: "admin access required" } });
    const patch = await plain.client.patch("/admin/flags", { flagId: "x", note: "let me" });
    expect(patch).toMatchObject({ status: 403, body: { error: "admin access required" } });
    expect((await new RestClient(app.url).get("/admin/flags")).status).toBe(401);
    const trpc = trpcClient(app.url, plain.jwt);
    const refused = await trpc.accountFlags.list.query({}).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TRPCClientError);
    const { message, data } = refused as { message: string; data: { httpStatus: number } };
    expect(message).toBe("admin access required");
    expect(data.httpStatus).toBe(403);
    const gql = await graphql(app.url, "{ accountFlagsList { total } }", {}, plain.jwt);
    expect(gql.body.errors?.[0]).toMatchObject({ message: "admin access required", extensions: { status: 403 } });
  });
});

describe("PATCH /api/admin/flags", () => {
  it("resolves a flag with a note (over tRPC), audited; it then lists as resolved, and resolving again is a 409", async () => {
    const user = await flaggedAccount("flag-resolve");
    const [flag] = (await admin.get(`/admin/flags?userId=${user.id}`)).body.data.flags;
    const trpc = trpcClient(app.url, adminJwt);
    const resolved = await trpc.accountFlags.resolve.mutate({ flagId: flag.id, note: "  Customer paid the difference by bank transfer. " });
    expect(resolved).toMatchObject({
      id: flag.id,
      email: user.email,
      resolvedByEmail: ADMIN_EMAIL,
      resolutionNote: "Customer paid the difference by bank transfer.",
    });
    expect(Date.parse(resolved.resolvedAt!)).not.toBeNaN();
    const audit = await app.services.prisma.auditLog.findFirst({ where: { action: "admin.flag_resolved", targetId: user.id } });
    expect(audit?.metadata).toMatchObject({ flagId: flag.id, note: "Customer paid the difference by bank transfer." });

    expect((await admin.get(`/admin/flags?userId=${user.id}`)).body.data.total).toBe(0);
    const listed = await trpc.accountFlags.list.query({ status: "resolved", userId: user.id });
    expect(listed.flags.map((f) => [f.id, f.resolutionNote])).toEqual([[flag.id, "Customer paid the difference by bank transfer."]]);
    const gql = await graphql(
      app.url,
      `query($u: String) { accountFlagsList(status: all, userId: $u) { total flags { kind resolvedByEmail } } }`,
      { u: user.id },
      adminJwt,
    );
    expect(gql.body.data).toEqual({
      accountFlagsList: { total: 1, flags: [{ kind: "chargeback_after_spend", resolvedByEmail: ADMIN_EMAIL }] },
    });

    const again = await admin.patch("/admin/flags", { flagId: flag.id, note: "twice" });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/already resolved/);
  });

  it("answers 400 in words for a missing flag id or note, and 404 for a flag that does not exist", async () => {
    const noId = await admin.patch("/admin/flags", { note: "done" });
    expect(noId.status).toBe(400);
    expect(noId.body.error).toMatch(/flagId/);
    const noNote = await admin.patch("/admin/flags", { flagId: "some-flag", note: " " });
    expect(noNote.status).toBe(400);
    expect(noNote.body.error).toMatch(/note must be at least 3 characters/);
    const missing = await admin.patch("/admin/flags", { flagId: "no-such-flag", note: "checked" });
    expect(missing).toMatchObject({ status: 404, body: { error: "Account flag not found" } });
  });
});

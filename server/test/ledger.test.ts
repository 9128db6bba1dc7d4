// The credit ledger under concurrency: concurrent debits never overdraw, every change is one ledger row,
// and the cached balance always equals the sum of the ledger.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changeCredits, InsufficientCreditsError, LedgerReason, ledgerBalance } from "../src/modules/credits/ledger.ts";
import { ADMIN_ENV, adminClient, signUp } from "./support/accounts.ts";
import type { RestClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let admin: RestClient;
beforeAll(async () => {
  app = await startTestApp({ ...ADMIN_ENV });
  admin = await adminClient(app);
});
afterAll(() => app?.close());

async function ledgerOf(userId: string) {
  return app.services.prisma.creditLedgerEntry.findMany({ where: { userId }, orderBy: { createdAt: "asc" } });
}

describe("concurrent debits", () => {
  it("20 concurrent admin debits of 1 against 10 credits: exactly 10 succeed and the balance ends at 0", async () => {
    const user = await signUp(app, "race-rest");
    const results = await Promise.all(
      Array.from({ length: 20 }, () => admin.post(`/admin/users/${user.id}/credits`, { amount: -1, reason: "race" })),
    );

    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(ok).toHaveLength(10);
    expect(refused.map((r) => [r.status, r.body])).toEqual(
      Array.from({ length: 10 }, () => [
        400,
        {
          success: false,
          error: "That would take the balance below zero: the account holds 0 credits and 1 would be removed. Remove at most 0.",
        },
      ]),
    );
    // Each success saw a distinct balance: the debits were applied one after another.
    expect(ok.map((r) => r.body.data.balance).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);

    expect((await user.client.get("/user/credits")).body.data).toEqual({ balance: 0 });
    const ledger = await ledgerOf(user.id);
    expect(ledger).toHaveLength(11);
    expect(ledger.filter((e) => e.reason === "admin_adjustment").every((e) => e.delta === -1 && e.balanceAfter >= 0)).toBe(true);
    expect(ledger.reduce((sum, e) => sum + e.delta, 0)).toBe(0);
    expect(await ledgerBalance(app.services.prisma, user.id)).toBe(0);
  });

  it("20 concurrent changeCredits transactions of -1 against 10 credits: exactly 10 commit", async () => {
    const user = await signUp(app, "race-domain");
    const { prisma } = app.services;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        prisma.$transaction(
          (tx) => changeCredits(tx, { userId: user.id, delta: -1, reason: LedgerReason.workflowCharge, reference: `job-${i}` }),
          // 20 transactions queue for a pool of 10 connections (or PGlite's one): wait, don't time out.
          { maxWait: 20_000, timeout: 20_000 },
        ),
      ),
    );
    const fulfilled = outcomes.filter((o) => o.status === "fulfilled");
    const rejected = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected");
    expect(fulfilled).toHaveLength(10);
    expect(rejected).toHaveLength(10);
    for (const r of rejected) {
      expect(r.reason).toBeInstanceOf(InsufficientCreditsError);
      expect(r.reason.message).toBe("Insufficient credits. Required: 1, available: 0");
    }
    const row = await prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.creditsBalance).toBe(0);
    expect(await ledgerBalance(prisma, user.id)).toBe(0);
    // A refused debit leaves no ledger row behind.
    expect((await ledgerOf(user.id)).filter((e) => e.reason === "workflow_charge")).toHaveLength(10);
  });

  it("concurrent grants and debits on one account keep balance and ledger in step", async () => {
    const user = await signUp(app, "race-mixed");
    const amounts = [5, -3, -4, 7, -6, -2, 1, -8, 3, -1, -9, 2];
    const results = await Promise.all(amounts.map((amount) => admin.post(`/admin/users/${user.id}/credits`, { amount })));
    const applied = amounts.filter((_, i) => results[i]!.status === 200);
    for (const r of results) expect([200, 400]).toContain(r.status);
    const expected = 10 + applied.reduce((a, b) => a + b, 0);
    expect((await user.client.get("/user/credits")).body.data.balance).toBe(expected);
    expect(await ledgerBalance(app.services.prisma, user.id)).toBe(expected);
    expect((await ledgerOf(user.id)).every((e) => e.balanceAfter >= 0)).toBe(true);
  });
});

describe("invariants", () => {
  it("a zero or fractional change is refused before touching the database", async () => {
    const user = await signUp(app, "zero");
    for (const delta of [0, 0.5]) {
      await expect(
        app.services.prisma.$transaction((tx) => changeCredits(tx, { userId: user.id, delta, reason: LedgerReason.adminAdjustment })),
      ).rejects.toThrow("amount must be a non-zero integer");
    }
    expect(await ledgerOf(user.id)).toHaveLength(1);
  });

  it("the database itself refuses a negative balance", async () => {
    const user = await signUp(app, "check");
    await expect(app.services.db.sql.query("UPDATE users SET credits_balance = -1 WHERE id = $1", [user.id])).rejects.toThrow(
      /users_credits_balance_nonnegative/,
    );
    expect((await app.services.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).creditsBalance).toBe(10);
  });

  it("every account's cached balance equals the sum of its ledger and is never negative", async () => {
    const rows = await app.services.db.sql.query<{ id: string; balance: number; ledger: number }>(
      `SELECT u.id, u.credits_balance AS balance, COALESCE(SUM(l.delta), 0)::int AS ledger
         FROM users u LEFT JOIN credit_ledger l ON l.user_id = u.id GROUP BY u.id, u.credits_balance`,
    );
    expect(rows.length).toBeGreaterThan(5);
    for (const row of rows) {
      expect(Number(row.balance), row.id).toBe(Number(row.ledger));
      expect(Number(row.balance)).toBeGreaterThanOrEqual(0);
    }
  });
});

// Invoices: one per paid order, numbered in sequence (also when payments land at once), listed by
// GET /invoice/generate; POST /invoice/generate answers the PDF of the named or latest invoice, whose
// text (read back with unpdf) holds the seller, the buyer, the lines, the tax line and the total.
import { extractText, getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, signUp } from "./support/accounts.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({
    INVOICE_SELLER: "AdGen Ltd | 1 Market Street | Springfield",
    INVOICE_TAX_PERCENT: "20",
    PUBLIC_URL: "https://ads.example.test",
  });
});
afterAll(async () => {
  await app?.close();
});

async function buy(user: Account, body: { packId: string } | { planId: string; interval?: string }) {
  const path = "packId" in body ? "/user/credits/purchase" : "/checkout/stripe";
  const { orderId } = (await user.client.post(path, body)).body.data;
  const paid = await user.client.post(`/checkout/sandbox/${orderId}`);
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  return orderId as string;
}

async function pdfOf(user: Account, body: Record<string, string> = {}) {
  const response = await fetch(`${app.url}/api/invoice/generate`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: `session=${user.jwt}` },
    body: JSON.stringify(body),
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { response, bytes };
}

async function textOf(bytes: Uint8Array): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
  return text.replace(/\s+/g, " ");
}

describe("invoices", () => {
  it("every paid order gets the next number; GET /invoice/generate lists them newest first", async () => {
    const user = await signUp(app, "invoices");
    expect((await user.client.get("/invoice/generate")).body.data).toEqual([]);
    const first = await buy(user, { packId: "pack_25" });
    const second = await buy(user, { planId: "subscription_pro", interval: "monthly" });
    const list = (await user.client.get("/invoice/generate")).body.data;
    expect(list.map((i: { orderId: string }) => i.orderId)).toEqual([second, first]);
    const [newer, older] = list;
    expect(Number(newer.number.slice(4))).toBe(Number(older.number.slice(4)) + 1);
    expect(older).toMatchObject({ description: "25-credit pack", currency: "USD", total: 22.99, totalCents: 2299 });
    expect(newer).toMatchObject({ description: "Pro plan, monthly (100 credits a month)", total: 79 });
    // A pending (unpaid) order has no invoice.
    await user.client.post("/user/credits/purchase", { packId: "pack_10" });
    expect((await user.client.get("/invoice/generate")).body.data).toHaveLength(2);
  });

  it("POST answers the latest invoice's PDF with seller, buyer, lines, tax and total in the order's currency", async () => {
    const user = await signUp(app, "invoice-pdf");
    await buy(user, { packId: "pack_25" });
    const [invoice] = (await user.client.get("/invoice/generate")).body.data;
    const { response, bytes } = await pdfOf(user);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${invoice.number}.pdf"`);
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
    const text = await textOf(bytes);
    expect(text).toContain(`Invoice number: ${invoice.number}`);
    expect(text).toContain("AdGen Ltd");
    expect(text).toContain("1 Market Street");
    expect(text).toContain(user.email);
    expect(text).toContain("25-credit pack");
    // 20 % tax included in 22.99: 3.83 of it is tax, 19.16 the net amount.
    expect(text).toContain("Subtotal USD 19.16");
    expect(text).toContain("Tax (20%, included in the price) USD 3.83");
    expect(text).toContain("Total USD 22.99");
  });

  it("POST names an invoice by id or number; another account's invoice is a 404, nothing to invoice a 400", async () => {
    const user = await signUp(app, "invoice-named");
    await buy(user, { packId: "pack_10" });
    await buy(user, { packId: "pack_100" });
    const [latest, earlier] = (await user.client.get("/invoice/generate")).body.data;
    expect(await textOf((await pdfOf(user, { invoiceId: earlier.number })).bytes)).toContain("10-credit pack");
    expect(await textOf((await pdfOf(user, { invoiceId: earlier.id })).bytes)).toContain(earlier.number);
    expect(await textOf((await pdfOf(user)).bytes)).toContain(latest.number);

    const stranger = await signUp(app, "invoice-stranger");
    const theirs = await pdfOf(stranger, { invoiceId: latest.id });
    expect(theirs.response.status).toBe(404);
    const none = await pdfOf(stranger);
    expect(none.response.status).toBe(400);
    expect(JSON.parse(new TextDecoder().decode(none.bytes)).error).toBe(
      "Nothing to invoice yet: an invoice is issued for every paid order, and this account has none",
    );
  });

  it("payments landing at once get distinct numbers with no gap", async () => {
    const users = await Promise.all(Array.from({ length: 8 }, (_, i) => signUp(app, `invoice-race-${i}`)));
    const orders = await Promise.all(
      users.map(async (u) => ({ u, orderId: (await u.client.post("/user/credits/purchase", { packId: "pack_10" })).body.data.orderId })),
    );
    const before = (await app.services.prisma.invoice.aggregate({ _max: { number: true } }))._max.number ?? 0;
    const answers = await Promise.all(orders.map(({ u, orderId }) => u.client.post(`/checkout/sandbox/${orderId}`)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    const numbers = (await app.services.prisma.invoice.findMany({ where: { number: { gt: before } }, select: { number: true } }))
      .map((i) => i.number)
      .sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 8 }, (_, i) => before + 1 + i));
  });
});

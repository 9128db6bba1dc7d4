// Bounds on what callers send (attack-run findings 7 and 8): a provider's amount that is not whole cents from 0
// to MAX_AMOUNT_CENTS is a 400 that changes nothing, while any amount within it is stored exactly (64-bit
// cents); input nested deeper than 32 levels, or hiding a NUL at any depth, is a 400 on REST, tRPC and
// GraphQL; the signup self-test, which hashes two passwords, counts per client IP in the auth rate class.
import { requestFrom } from "./support/request-from.ts";
import { MAX_AMOUNT_CENTS } from "@adgen/schema";
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completedEvent, expectLedgerMatches, refundEvent, SECRETS, signed } from "./billing-fixtures.ts";
import { ADMIN_ENV, type Account, adminClient, signUp } from "./support/accounts.ts";
import { graphql, RestClient, trpcClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

const WORKER_TOKEN = "input-bounds-worker-token";
let app: TestApp;
let admin: RestClient;
beforeAll(async () => {
  app = await startTestApp({ ...SECRETS, ...ADMIN_ENV, WORKER_TOKEN });
  admin = await adminClient(app);
});
afterAll(() => app?.close());

/** `event` as JSON with `raw` (JSON text, sent byte for byte: 2^53+1 must not be rounded first) at `field`. */
function withRaw(event: object, set: (event: any, mark: string) => void, raw: string): string {
  const copy = structuredClone(event);
  set(copy, "__RAW__");
  return JSON.stringify(copy).replace('"__RAW__"', raw);
}

/** Nothing of the event was kept: no payment_events row, no order, the signup credits only. */
async function expectNothingChanged(user: Account, eventId: string | undefined) {
  expect(eventId, "the event names its id").toBeTruthy();
  expect(await app.services.prisma.paymentEvent.count({ where: { eventId: { contains: eventId ?? "(no event id)" } } })).toBe(0);
  expect(await app.services.prisma.order.count({ where: { userId: user.id } })).toBe(0);
  expect(await expectLedgerMatches(app, user.id)).toBe(10);
}

describe("provider amounts: whole cents from 0 to MAX_AMOUNT_CENTS", () => {
  const setStripe = (e: any, v: string) => (e.data.object.amount_total = v);
  it("a signed Stripe checkout whose amount_total is out of range or not whole cents is a 400; the corrected event then pays", async () => {
    const user = await signUp(app, "stripe-amount");
    const event = completedEvent("stripe", { userId: user.id, packId: "pack_25" });
    for (const raw of ["9007199254740993", "1e308", String(MAX_AMOUNT_CENTS + 1), "-1", "22.99", '"lots"']) {
      const refused = await signed(app, "stripe", withRaw(event, setStripe, raw));
      expect(refused.status, raw).toBe(400);
      expect(refused.body.error).toBe(
        `The stripe event's data.object.amount_total must be a whole number of cents from 0 to ${MAX_AMOUNT_CENTS}`,
      );
      await expectNothingChanged(user, event.id);
    }
    const paid = await signed(app, "stripe", JSON.stringify(event));
    expect(paid.body).toEqual({ success: true, data: { received: true, duplicate: false, outcome: "fulfilled" } });
    expect(await expectLedgerMatches(app, user.id)).toBe(35);
  });

  it("Paddle's string totals and Lemon Squeezy's totals are held to the same range", async () => {
    const user = await signUp(app, "paddle-amount");
    const paddle = completedEvent("paddle", { userId: user.id, packId: "pack_25" });
    const setPaddle = (e: any, v: string) => (e.data.details.totals.grand_total = v);
    for (const raw of ['"1e308"', '"99999999999999999999"', '"-5"', '"22.99"', "1e308"]) {
      const refused = await signed(app, "paddle", withRaw(paddle, setPaddle, raw));
      expect([refused.status, refused.body.error], raw).toEqual([
        400,
        `The paddle event's data.details.totals.grand_total must be a whole number of cents from 0 to ${MAX_AMOUNT_CENTS}`,
      ]);
      await expectNothingChanged(user, paddle.event_id);
    }
    const lemon = completedEvent("lemonsqueezy", { userId: user.id, packId: "pack_10" });
    const refused = await signed(
      app,
      "lemonsqueezy",
      withRaw(lemon, (e, v) => (e.data.attributes.total = v), "1e308"),
    );
    expect([refused.status, refused.body.error]).toEqual([
      400,
      `The lemonsqueezy event's data.attributes.total must be a whole number of cents from 0 to ${MAX_AMOUNT_CENTS}`,
    ]);
    await expectNothingChanged(user, lemon.meta?.webhook_id);
    expect((await signed(app, "paddle", JSON.stringify(paddle))).status).toBe(200);
    expect(await expectLedgerMatches(app, user.id)).toBe(35);
  });

  it("a refund whose amount_refunded is out of range is a 400 and takes nothing back", async () => {
    const user = await signUp(app, "refund-amount");
    const paymentId = `pi_${user.id}`;
    expect(
      (await signed(app, "stripe", JSON.stringify(completedEvent("stripe", { userId: user.id, packId: "pack_25" }, { paymentId })))).status,
    ).toBe(200);
    const refund = refundEvent("stripe", paymentId);
    const refused = await signed(
      app,
      "stripe",
      withRaw(refund, (e, v) => (e.data.object.amount_refunded = v), "1e308"),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^The stripe event's data\.object\.amount_refunded must be a whole number of cents/);
    expect(await app.services.prisma.paymentEvent.count({ where: { eventId: refund.id } })).toBe(0);
    expect(await expectLedgerMatches(app, user.id)).toBe(35);
  });

  it("amounts past 32 bits, up to MAX_AMOUNT_CENTS, are stored, invoiced and summed exactly", async () => {
    const before = (await admin.get("/admin/revenue")).body.data.totalCents as number;
    const user = await signUp(app, "big-amounts");
    const amounts = [2 ** 31, 3_000_000_000, MAX_AMOUNT_CENTS];
    for (const amount of amounts) {
      const event = completedEvent("stripe", { userId: user.id, packId: "pack_10" });
      const paid = await signed(app, "stripe", withRaw(event, setStripe, String(amount)));
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    }
    const orders = await app.services.prisma.order.findMany({ where: { userId: user.id }, orderBy: { amountCents: "asc" } });
    expect(orders.map((o) => o.amountCents)).toEqual(amounts.map(BigInt));
    const invoices = (await user.client.get("/invoice/generate")).body.data;
    expect(invoices.map((i: { totalCents: number }) => i.totalCents).sort((a: number, b: number) => a - b)).toEqual(amounts);
    const after = (await admin.get("/admin/revenue")).body.data.totalCents as number;
    expect(after - before).toBe(amounts.reduce((sum, n) => sum + n, 0));
  });

  it("a NUL in a signed event's ids or metadata is a 400 naming where, not a database error", async () => {
    const user = await signUp(app, "nul-event");
    const event = completedEvent("stripe", { userId: `${user.id}\u0000`, packId: "pack_25" });
    const refused = await signed(app, "stripe", JSON.stringify(event));
    expect([refused.status, refused.body.error]).toEqual([400, "The stripe event's data.object.metadata.userId contains a NUL character"]);
    await expectNothingChanged(user, event.id);
  });
});

/** `{a: {a: … {leaf}}}`, `levels` objects deep, built without recursion. */
function nested(levels: number, leaf: Record<string, unknown> = {}): Record<string, unknown> {
  let value: Record<string, unknown> = leaf;
  for (let i = 1; i < levels; i += 1) value = { a: value };
  return value;
}
const path = (levels: number) => ["result", ...Array(levels).fill("a")].join(".");
const TOO_DEEP = `The input nests deeper than 32 levels at ${path(31)}`;

describe("JSON input depth and NUL characters, on every transport", () => {
  let jobId: string;
  const worker = () => new RestClient(app.url, { bearer: WORKER_TOKEN });
  beforeAll(async () => {
    const owner = await signUp(app, "deep-owner");
    jobId = (await owner.client.post("/workflow", { type: "cinematic" })).body.data.jobId;
  });
  const jobUnchanged = async () =>
    expect(await app.services.prisma.job.findUniqueOrThrow({ where: { id: jobId } })).toMatchObject({ status: "queued", progress: 0 });

  it("REST: a worker update whose result nests 3,000 levels is a 400 naming where", async () => {
    const res = await worker().post("/workflow/stream", { jobId, status: "completed", result: nested(3000) });
    expect([res.status, res.body.error]).toEqual([400, TOO_DEEP]);
    await jobUnchanged();
  });

  it("tRPC and GraphQL: the same result is a BAD_REQUEST", async () => {
    const error = await trpcClient(app.url, WORKER_TOKEN)
      .workflow.workerUpdate.mutate({ jobId, status: "completed", result: nested(3000) })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(TRPCClientError);
    expect({ code: (error as TRPCClientError<any>).data?.code, message: (error as Error).message }).toEqual({
      code: "BAD_REQUEST",
      message: TOO_DEEP,
    });
    const query =
      "mutation($jobId: String!, $result: JSON) { workflowWorkerUpdate(jobId: $jobId, status: completed, result: $result) { jobId } }";
    const { body } = await graphql(app.url, query, { jobId, result: nested(3000) }, WORKER_TOKEN);
    expect(body.errors?.map((e) => [e.message, e.extensions?.code, e.extensions?.status])).toEqual([[TOO_DEEP, "BAD_REQUEST", 400]]);
    await jobUnchanged();
  });

  it("a NUL 40 levels deep is refused, and one within the limit is a 400 naming its field", async () => {
    const deep = await worker().post("/workflow/stream", { jobId, status: "completed", result: nested(40, { note: "x\u0000" }) });
    expect([deep.status, deep.body.error]).toEqual([400, TOO_DEEP]);
    const within = await worker().post("/workflow/stream", { jobId, status: "completed", result: nested(30, { note: "x\u0000" }) });
    expect([within.status, within.body.error]).toEqual([400, `${path(29)}.note must not contain a NUL character (\\u0000)`]);
    const key = await worker().post("/workflow/stream", { jobId, status: "completed", result: nested(30, { "n\u0000": 1 }) });
    expect([key.status, key.fields?.[0]?.field]).toEqual([400, `${path(29)}.n\u0000`]);
    await jobUnchanged();
  });
});

/** A GET from another loopback address (another client IP), signed in with a bearer session. */
const getFrom = (on: TestApp, localAddress: string, path: string, bearer: string) =>
  requestFrom(localAddress, `${on.url}/api${path}`, { headers: { authorization: `Bearer ${bearer}` } });

describe("GET /health/signup-test counts in the auth class (per client IP)", () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({ ...ADMIN_ENV, RATE_LIMIT_AUTH_PER_HOUR: "2" });
  });
  afterAll(() => limited?.close());

  it("the third run from one IP is a 429, whichever account asks; an admin elsewhere still runs it", async () => {
    const [user, other] = [await signUp(limited, "selftest-a"), await signUp(limited, "selftest-b")];
    const runs = [await user.client.get("/health/signup-test"), await other.client.get("/health/signup-test")];
    expect(runs.map((r) => [r.status, r.body.data?.success, r.headers.get("x-ratelimit-limit")])).toEqual([
      [200, true, "2"],
      [200, true, "2"],
    ]);
    const third = await user.client.get("/health/signup-test");
    expect([third.status, third.body.error, third.headers.get("x-ratelimit-remaining")]).toEqual([
      429,
      "Too many requests. Please try again later.",
      "0",
    ]);
    const adminJwt = (await adminClient(limited)).cookie!;
    const elsewhere = await getFrom(limited, "127.0.0.2", "/health/signup-test", adminJwt);
    expect([elsewhere.status, elsewhere.body.data?.success]).toEqual([200, true]);
  });
});

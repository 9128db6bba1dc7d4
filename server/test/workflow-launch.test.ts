// POST /api/workflow on a service with no workers (nothing renders): validation naming the field, the
// order of checks (401 → 400 → 402 trial → 403 reserved → 404 brand → 402 credits), every workflow type
// at its SPEC 8.2 price, both stated response shapes at once, and URLs that must be public.
import { WORKFLOWS } from "@adgen/schema";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Resolver } from "../src/modules/net/safe-fetch.ts";
import { type Account, ADMIN_ENV, adminClient, signUp } from "./support/accounts.ts";
import { givePresenter } from "./support/presenter.ts";
import { TRPCClientError } from "@trpc/client";
import { graphql, RestClient, trpcClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

const PUBLIC_IP = "93.184.216.34";
const DNS: Record<string, string[]> = { "shop.example": [PUBLIC_IP], "internal.example": ["10.1.2.3"] };
const resolver: Resolver = async (host) => {
  const answer = DNS[host];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return answer;
};

// The product page the types made from a page (clone, brand, local-audit) read before they are charged.
const network = setupServer(
  http.get("https://shop.example/product", () =>
    HttpResponse.html("<!doctype html><html><head><title>Steel Travel Mug</title></head></html>"),
  ),
);

let app: TestApp;
let admin: RestClient;
beforeAll(async () => {
  network.listen({ onUnhandledRequest: (request, print) => (new URL(request.url).hostname !== "127.0.0.1" ? print.error() : undefined) });
  app = await startTestApp({ ...ADMIN_ENV, WORKERS: "0" }, { resolver });
  admin = await adminClient(app);
});
afterAll(async () => {
  await app?.close();
  network.close();
});

async function balance(account: Account): Promise<number> {
  const res = await account.client.get("/user/credits");
  expect(res.status).toBe(200);
  return res.body.data.balance;
}

async function grant(account: Account, amount: number) {
  const res = await admin.post(`/admin/users/${account.id}/credits`, { amount, reason: "workflow tests" });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.balance as number;
}

async function patchUser(account: Account, patch: Record<string, unknown>) {
  const res = await admin.patch(`/admin/users/${account.id}`, patch);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function ledgerRows(userId: string) {
  return app.services.prisma.creditLedgerEntry.findMany({ where: { userId }, orderBy: { createdAt: "asc" } });
}

async function jobCount(userId: string) {
  return app.services.prisma.job.count({ where: { userId } });
}

function expectError(res: { status: number; body: { success: boolean; error?: string } }, status: number, message: RegExp | string) {
  expect({ status: res.status, success: res.body.success }, JSON.stringify(res.body)).toEqual({ status, success: false });
  if (typeof message === "string") expect(res.body.error).toBe(message);
  else expect(res.body.error).toMatch(message);
}

describe("POST /workflow validation", () => {
  let user: Account;
  beforeAll(async () => {
    user = await signUp(app, "launch-validate");
  });

  it("answers 401 without a credential, before looking at the body", async () => {
    const anonymous = new RestClient(app.url);
    expectError(await anonymous.post("/workflow", { type: "cinematic" }), 401, "Authentication required");
    expectError(await anonymous.post("/workflow", { type: "nope", concept: 5 }), 401, "Authentication required");
    expectError(
      await new RestClient(app.url, { bearer: "not-a-token" }).post("/workflow", { type: "cinematic" }),
      401,
      "Authentication required",
    );
  });

  it.each([
    ["an unknown type", { type: "documentary" }, /^Choose a workflow type: one of cinematic, /],
    ["a missing type", { concept: "A fine ad" }, /^Choose a workflow type: one of /],
    ["clone without url", { type: "clone" }, "The Inspiration workflow needs a web page to work from: give its address"],
    [
      "factory without url",
      { type: "factory", formats: ["9:16"] },
      "The Multi-Format workflow needs a web page to work from: give its address",
    ],
    [
      "a url that is not http(s)",
      { type: "clone", url: "ftp://shop.example/x" },
      "The page address must be a web address starting with http:// or https://",
    ],
    ["concept over 2000 chars", { type: "cinematic", concept: "x".repeat(2001) }, "The concept must be at most 2000 characters"],
    ["a non-string concept", { type: "cinematic", concept: 42 }, "The concept must be text"],
    ["an array with 3:2", { type: "cinematic", formats: ["9:16", "3:2"] }, /^3:2 is not a format we make: choose from /],
    [
      "4:5 in the comma form",
      { type: "cinematic", formats: "9:16,4:5" },
      /^4:5 is not a format we make this way: separated by commas the formats are 9:16, 1:1, 16:9/,
    ],
    ["an empty formats list", { type: "cinematic", formats: [] }, "Choose at least one format"],
    ["formats as a number", { type: "cinematic", formats: 916 }, /^Formats must be a list of ratios, or ratios separated by commas/],
    [
      "an unknown framework",
      { type: "cinematic", framework: "4ps" },
      /^The copywriting framework must be one of pas, aida, sb7, cialdini, uvp, bant/,
    ],
    ["an unknown seasonal", { type: "cinematic", seasonal: "christmas" }, /^The seasonal theme must be one of ramadan, eid/],
    ["an unknown quality", { type: "cinematic", quality: "ultra" }, "Quality must be standard or premium"],
    ["an unknown adPreset", { type: "cinematic", adPreset: "vaporwave" }, /^The ad style must be one of /],
    ["a string async", { type: "cinematic", async: "false" }, "Running in the background (async) must be true or false"],
    ["a numeric hitl", { type: "cinematic", hitl: 1 }, "Review before rendering (hitl) must be true or false"],
    ["models that are not an object", { type: "cinematic", models: "fast" }, /^Models must name an image, video or voice model by id/],
  ])("answers 400 naming the field for %s, and charges nothing", async (_name, body, message) => {
    const before = await balance(user);
    expectError(await user.client.post("/workflow", body), 400, message);
    expect(await balance(user)).toBe(before);
    expect(await jobCount(user.id)).toBe(0);
  });

  it("answers 400 for a body that is not JSON", async () => {
    const res = await user.client.call("POST", "/workflow", "{type: cinematic", { "content-type": "application/json" });
    expectError(res, 400, "Request body is not valid JSON");
  });

  it("accepts formats as an array with 4:5 and as the comma string '9:16, 1:1'", async () => {
    const { prisma } = app.services;
    const array = await user.client.post("/workflow", { type: "cinematic", formats: ["4:5", "16:9", "4:5"] });
    expect(array.status, JSON.stringify(array.body)).toBe(200);
    const comma = await user.client.post("/workflow", { type: "cinematic", formats: "9:16, 1:1" });
    expect(comma.status, JSON.stringify(comma.body)).toBe(200);
    const stored = async (id: string) => ((await prisma.job.findUniqueOrThrow({ where: { id } })).input as { formats: string[] }).formats;
    expect(await stored(array.body.data.jobId)).toEqual(["4:5", "16:9"]);
    expect(await stored(comma.body.data.jobId)).toEqual(["9:16", "1:1"]);
    // The project's input_data records what was asked for.
    const projects = (await user.client.get("/user/projects")).body.data as { id: string; input_data: string }[];
    expect(JSON.parse(projects.find((p) => p.id === comma.body.data.jobId)!.input_data)).toMatchObject({
      type: "cinematic",
      formats: ["9:16", "1:1"],
    });
  });
});

describe("prices (SPEC 8.2) and the response shapes", () => {
  const expected: Record<string, [number, number]> = {
    cinematic: [1, 2],
    avatar: [2, 3],
    factory: [3, 5],
    clone: [3, 5],
    influencer: [8, 15],
    brand: [15, 25],
    staticad: [1, 1],
    painpoint: [1, 1],
    "ad-optimizer": [1, 2],
    "local-audit": [2, 3],
  };

  it("knows exactly the ten types of the contract", () => {
    expect(WORKFLOWS.map((w) => w.type).sort()).toEqual(Object.keys(expected).sort());
  });

  it("accepts all ten types at standard and premium, charging the stated price once each", async () => {
    const user = await signUp(app, "launch-prices");
    await givePresenter(app, user.jwt);
    await patchUser(user, { current_plan_id: "subscription_pro" });
    const total = Object.values(expected).reduce((sum, [s, p]) => sum + s + p, 0);
    expect(total).toBe(99);
    let current = await grant(user, total - 10);
    expect(current).toBe(total);
    // The ad-optimizer improves one of the account's completed projects: give it one (made earlier, as stored).
    const earlier = await app.services.prisma.job.create({
      data: {
        userId: user.id,
        type: "cinematic",
        quality: "standard",
        status: "completed",
        creditsUsed: 0,
        input: { type: "cinematic", concept: "Cold brew for night shifts" },
        result: {
          finalVideo: null,
          thumbnail: null,
          assets: [],
          storyboard: {
            title: "Cold brew",
            brand: { name: "Brewly", primary: "#1d3557", secondary: "#457b9d", accent: "#e63946", text: "#ffffff" },
            scenes: [
              {
                id: "scene-1-attention",
                durationSec: 3,
                headline: "Cold brew for night shifts",
                background: "#1d3557",
                accent: "#e63946",
                transition: "fade",
              },
            ],
          },
        },
        finishedAt: new Date(),
      },
    });
    const jobIds: string[] = [];
    for (const [type, [standard, premium]] of Object.entries(expected)) {
      for (const [quality, price] of [
        ["standard", standard],
        ["premium", premium],
      ] as const) {
        const body = {
          type,
          quality,
          ...(type === "factory" || type === "clone" || type === "local-audit" || type === "brand"
            ? { url: "https://shop.example/product" }
            : {}),
          ...(type === "ad-optimizer" ? { project: earlier.id } : {}),
        };
        const res = await user.client.post("/workflow", body);
        expect(res.status, `${type} ${quality}: ${JSON.stringify(res.body)}`).toBe(200);
        // Both stated shapes at once (CONTRACT).
        expect(res.body).toEqual({
          success: true,
          data: {
            jobId: expect.any(String),
            status: "queued",
            creditsUsed: price,
            ...(type === "factory" ? { batchId: res.body.data.jobId } : {}),
          },
          jobId: res.body.data.jobId,
          message: expect.stringContaining(type),
          cost: price,
        });
        current -= price;
        expect(await balance(user), `${type} ${quality}`).toBe(current);
        jobIds.push(res.body.data.jobId);
      }
    }
    expect(current).toBe(0);
    expect(new Set(jobIds).size).toBe(20);
    // One charge row per job, referencing it, with the job's price.
    const charges = (await ledgerRows(user.id)).filter((r) => r.reason === "workflow_charge");
    expect(charges.map((c) => c.reference).sort()).toEqual([...jobIds].sort());
    const jobs = await app.services.prisma.job.findMany({ where: { userId: user.id, id: { not: earlier.id } } });
    expect(jobs).toHaveLength(20);
    for (const job of jobs) {
      expect(charges.find((c) => c.reference === job.id)!.delta).toBe(-job.creditsUsed);
      expect(job.status).toBe("queued");
    }
    // The estimate agrees with the price table and charges nothing.
    const estimate = await user.client.post("/workflow/estimate", {
      type: "brand",
      quality: "premium",
      url: "https://shop.example/product",
    });
    expect(estimate.body.data).toMatchObject({ cost: 25, balance: 0, sufficient: false, blockedBy: "insufficient_credits" });
  });
});

describe("order of checks after validation", () => {
  it("an expired trial answers 402 before the reserved-workflow check; validation still comes first", async () => {
    const user = await signUp(app, "launch-trial");
    await patchUser(user, { trial_ends_at: new Date(Date.now() - 60_000).toISOString() });
    for (const type of ["cinematic", "brand", "influencer"]) {
      expectError(await user.client.post("/workflow", { type }), 402, /trial/i);
    }
    // A bad body is still a 400, not a 402.
    expectError(await user.client.post("/workflow", { type: "cinematic", quality: "ultra" }), 400, "Quality must be standard or premium");
    expect(await balance(user)).toBe(10);
    expect(await jobCount(user.id)).toBe(0);
    // A trial that ends in the future launches.
    await patchUser(user, { trial_ends_at: new Date(Date.now() + 86_400_000).toISOString() });
    expect((await user.client.post("/workflow", { type: "cinematic" })).status).toBe(200);
    expect(await balance(user)).toBe(9);
  });

  it("brand and influencer answer 403 on trial and free, nothing charged, before the credit check; allowed on subscription_pro", async () => {
    const user = await signUp(app, "launch-reserved");
    await givePresenter(app, user.jwt);
    for (const plan of ["trial", "free"]) {
      await patchUser(user, { current_plan_id: plan });
      for (const type of ["brand", "influencer"]) {
        // brand costs 15 > 10: the reserved check answers before the credit check.
        const res = await user.client.post("/workflow", { type });
        expectError(res, 403, new RegExp(`\\(${type}\\) is not available on the ${plan} plan.*nothing was charged`));
      }
      // Other types are fine on those plans.
      expect((await user.client.post("/workflow", { type: "painpoint" })).status).toBe(200);
    }
    expect(await balance(user)).toBe(8);
    expect(await jobCount(user.id)).toBe(2);

    await patchUser(user, { current_plan_id: "subscription_pro" });
    const influencer = await user.client.post("/workflow", { type: "influencer" });
    expect(influencer.status, JSON.stringify(influencer.body)).toBe(200);
    expect(influencer.body).toMatchObject({ cost: 8, data: { creditsUsed: 8 } });
    expect(await balance(user)).toBe(0);
  });

  it("answers 402 with the exact insufficient-credits message", async () => {
    const user = await signUp(app, "launch-poor");
    await patchUser(user, { current_plan_id: "subscription_pro" });
    // brand reads the brand's site: a url (or a websiteUrl in the profile) is part of a valid brand launch.
    const site = "https://shop.example/product";
    expectError(
      await user.client.post("/workflow", { type: "brand", url: site }),
      402,
      "Insufficient credits. Required: 15, available: 10",
    );
    expectError(
      await user.client.post("/workflow", { type: "brand", quality: "premium", url: site }),
      402,
      "Insufficient credits. Required: 25, available: 10",
    );
    expect(await balance(user)).toBe(10);
    expect(await jobCount(user.id)).toBe(0);
    expect((await ledgerRows(user.id)).map((r) => r.reason)).toEqual(["signup_grant"]);
  });

  it("answers 404 for another account's brand id (before the credit check) and uses one's own", async () => {
    const owner = await signUp(app, "brand-owner");
    const other = await signUp(app, "brand-other");
    const saved = await owner.client.post("/user/brand", { name: "Acme Coffee", colors: { primary: "#112233" } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const brandId = saved.body.data.id as string;
    expect(brandId).toEqual(expect.any(String));

    expectError(await other.client.post("/workflow", { type: "cinematic", brand: brandId }), 404, "Brand not found");
    expectError(await other.client.post("/workflow", { type: "cinematic", brand: "no-such-brand" }), 404, "Brand not found");
    // 404 comes before 402: brand (15 credits) is not affordable with 10.
    await patchUser(other, { current_plan_id: "subscription_pro" });
    expectError(await other.client.post("/workflow", { type: "brand", brand: brandId }), 404, "Brand not found");
    expect(await balance(other)).toBe(10);
    expect(await jobCount(other.id)).toBe(0);

    const own = await owner.client.post("/workflow", { type: "cinematic", brand: brandId });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
  });
});

describe("URLs of a launch must be public", () => {
  it("answers 400 for a clone url on a private address, and charges nothing", async () => {
    const user = await signUp(app, "launch-private");
    for (const url of [
      "http://10.0.0.1/",
      "http://127.0.0.1:8080/page",
      "http://localhost/",
      "http://[::1]/",
      "http://2130706433/",
      "https://internal.example/p",
    ]) {
      const res = await user.client.post("/workflow", { type: "clone", url });
      expectError(res, 400, /^url must not point to a private or local address/);
    }
    expect(await balance(user)).toBe(10);
    expect(await jobCount(user.id)).toBe(0);
  });

  it("accepts a url whose host does not resolve now for a type not made from the page (the job records a warning instead)", async () => {
    const user = await signUp(app, "launch-unresolvable");
    const res = await user.client.post("/workflow", { type: "cinematic", url: "https://gone.example/p" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ cost: 1 });
    // Inspiration is made from its page: one that cannot be read is refused before the charge.
    const clone = await user.client.post("/workflow", { type: "clone", url: "https://gone.example/p" });
    expectError(clone, 400, /^We could not read https:\/\/gone\.example\/p \(gone\.example could not be resolved\)/);
    expect(await balance(user)).toBe(9);
  });

  it("answers 400 naming callbackUrl for a private callback address", async () => {
    const user = await signUp(app, "launch-callback");
    for (const callbackUrl of ["http://10.0.0.1/hook", "http://127.0.0.1/hook", "https://internal.example/hook"]) {
      expectError(
        await user.client.post("/workflow", { type: "cinematic", callbackUrl }),
        400,
        /^callbackUrl must not point to a private or local address/,
      );
    }
    expect(await balance(user)).toBe(10);
    expect(await jobCount(user.id)).toBe(0);
    const ok = await user.client.post("/workflow", { type: "cinematic", callbackUrl: "https://shop.example/hook" });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    // A name that does not resolve right now is accepted: each delivery checks it then (deferred-job-urls.test.ts).
    const later = await user.client.post("/workflow", { type: "cinematic", callbackUrl: "https://gone.example/hook" });
    expect(later.status, JSON.stringify(later.body)).toBe(200);
  });
});

describe("the same launch over GraphQL and tRPC", () => {
  // The operation's input fields are the field's arguments; a variable left out omits its argument.
  const LAUNCH = `mutation($type: WorkflowType!, $url: String, $concept: String, $quality: QualityTier, $formats: [String!], $key: String) {
    workflowLaunch(type: $type, url: $url, concept: $concept, quality: $quality, formats: $formats, idempotencyKey: $key) {
      jobId status creditsUsed cost message replayed batchId
    }
  }`;

  it("GraphQL workflowLaunch charges the same price, replays an idempotency key and maps errors to codes", async () => {
    const user = await signUp(app, "launch-gql");
    const ok = await graphql(app.url, LAUNCH, { type: "factory", url: "https://shop.example/p", quality: "premium", key: "g-1" }, user.jwt);
    expect(ok.body.errors).toBeUndefined();
    const launched = ok.body.data.workflowLaunch;
    expect(launched).toEqual({
      jobId: expect.any(String),
      status: "queued",
      creditsUsed: 5,
      cost: 5,
      message: expect.any(String),
      replayed: false,
      batchId: launched.jobId,
    });
    const replay = await graphql(
      app.url,
      LAUNCH,
      { type: "factory", url: "https://shop.example/p", quality: "premium", key: "g-1" },
      user.jwt,
    );
    expect(replay.body.data.workflowLaunch).toMatchObject({ jobId: launched.jobId, replayed: true });
    expect(await balance(user)).toBe(5);

    const errors = async (input: Record<string, unknown>, token = user.jwt) =>
      (await graphql(app.url, LAUNCH, input, token || undefined)).body.errors?.map((e) => ({
        message: e.message,
        code: e.extensions?.code,
      }));
    expect(await errors({ type: "cinematic", formats: ["3:2"] })).toEqual([
      { message: expect.stringMatching(/^3:2 is not a format we make/), code: "BAD_REQUEST" },
    ]);
    expect(await errors({ type: "cinematic", concept: "x".repeat(2001) })).toEqual([
      { message: "The concept must be at most 2000 characters", code: "BAD_REQUEST" },
    ]);
    expect(await errors({ type: "clone", url: "http://10.0.0.1/" })).toEqual([
      { message: expect.stringMatching(/^url must not point to a private/), code: "BAD_REQUEST" },
    ]);
    expect(await errors({ type: "brand" })).toEqual([
      { message: expect.stringMatching(/not available on the trial plan/), code: "FORBIDDEN" },
    ]);
    expect(await errors({ type: "cinematic" }, "")).toEqual([{ message: "Authentication required", code: "UNAUTHORIZED" }]);
    await patchUser(user, { current_plan_id: "subscription_pro" });
    expect(await errors({ type: "brand", url: "https://shop.example/product" })).toEqual([
      { message: "Insufficient credits. Required: 15, available: 5", code: "PAYMENT_REQUIRED" },
    ]);
    expect(await balance(user)).toBe(5);
  });

  it("tRPC workflow.launch does the same", async () => {
    const user = await signUp(app, "launch-trpc");
    await givePresenter(app, user.jwt);
    const api = trpcClient(app.url, user.jwt);
    const launched = await api.workflow.launch.mutate({ type: "avatar", formats: "9:16, 1:1", idempotencyKey: "t-1" });
    expect(launched).toMatchObject({ jobId: expect.any(String), status: "queued", creditsUsed: 2, cost: 2, replayed: false });
    expect(await api.workflow.launch.mutate({ type: "avatar", formats: "9:16, 1:1", idempotencyKey: "t-1" })).toMatchObject({
      jobId: launched.jobId,
      replayed: true,
    });
    expect(await balance(user)).toBe(8);
    const failure = async (input: Parameters<typeof api.workflow.launch.mutate>[0]) => {
      const error = await api.workflow.launch.mutate(input).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(TRPCClientError);
      const e = error as TRPCClientError<any>;
      return { message: e.message, code: e.data?.code };
    };
    expect(await failure({ type: "cinematic", formats: "9:16,4:5" })).toEqual({
      message: expect.stringMatching(/^4:5 is not a format we make/),
      code: "BAD_REQUEST",
    });
    expect(await failure({ type: "influencer" })).toEqual({
      message: expect.stringMatching(/not available on the trial plan/),
      code: "FORBIDDEN",
    });
    expect(await failure({ type: "avatar", formats: "9:16, 1:1", idempotencyKey: "t-1", quality: "premium" })).toEqual({
      message: "This Idempotency-Key was already used with a different request body",
      code: "CONFLICT",
    });
    await patchUser(user, { trial_ends_at: new Date(Date.now() - 1000).toISOString() });
    expect(await failure({ type: "cinematic" })).toEqual({ message: expect.stringMatching(/trial/i), code: "PAYMENT_REQUIRED" });
    expect(await balance(user)).toBe(8);
  });
});

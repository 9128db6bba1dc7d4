// The cost guard: the estimate shows what the generated models would use and cost (0 with the
// studio's own), and a launch whose provider cost is more than its credits cover under PROVIDER_MARGIN is a
// 400 before anything is charged, on REST, tRPC and GraphQL. Provider keys here are fakes: every refused
// launch stops before a provider is asked anything.
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/env.ts";
import { estimateProviderCost, providerBudgetCents } from "../src/modules/providers/provider-cost.ts";
import { type Account, ADMIN_ENV, adminClient, signUp } from "./support/accounts.ts";
import { givePresenter } from "./support/presenter.ts";
import { graphql, trpcClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

const KEYS = { FAL_KEY: "fal-test-key", ELEVENLABS_API_KEY: "xi-test" };
const rates = loadConfig({ DATABASE_URL: "memory://", SESSION_SECRET: "x".repeat(40) }).providerCosts;

describe("the provider cost estimator", () => {
  const launch = { type: "cinematic", formats: ["9:16", "16:9"] as const, maxAdSeconds: 15 };

  it("prices generated video per clip second (five scenes at most, five seconds each, per frame shape), premium at its own rate", () => {
    const standard = estimateProviderCost({ ...launch, quality: "standard", models: { video: "generated-video" } }, rates);
    expect(standard).toEqual({ seconds: 50, pictures: 0, characters: 0, costCents: 250 });
    const premium = estimateProviderCost({ ...launch, quality: "premium", models: { video: "generated-video" } }, rates);
    expect(premium.costCents).toBe(500);
    // A 4:5 feed ad is cut from the square clip: no more seconds than the square alone.
    const feeds = estimateProviderCost(
      { ...launch, formats: ["1:1", "4:5"], quality: "standard", models: { video: "generated-video" } },
      rates,
    );
    expect(feeds.seconds).toBe(25);
    // One talking presenter for the whole ad, shown in every format.
    const presenter = estimateProviderCost({ ...launch, quality: "standard", models: { video: "talking-presenter" } }, rates);
    expect(presenter).toMatchObject({ seconds: 15, costCents: 120 });
  });

  it("costs nothing with the studio's own models", () => {
    const models = { image: "studio-stills", video: "studio-motion", voice: "studio-voice" };
    expect(estimateProviderCost({ ...launch, quality: "premium", models }, rates)).toEqual({
      seconds: 0,
      pictures: 0,
      characters: 0,
      costCents: 0,
    });
  });

  it("keeps the margin back from a credit's value (the cheapest pack's price per credit)", () => {
    expect(rates.creditValueCents).toBeCloseTo(69.99, 2);
    expect(providerBudgetCents(2, rates)).toBeCloseTo(2 * 69.99 * 0.7, 2);
  });
});

let studio: TestApp;
let keyed: TestApp;
let dear: TestApp;
beforeAll(async () => {
  [studio, keyed, dear] = await Promise.all([
    startTestApp({ WORKERS: "0" }),
    startTestApp({ WORKERS: "0", STUDIO_MAX_AD_SECONDS: "15", ...KEYS, ...ADMIN_ENV }),
    // Pictures at a dollar each: even one costs more than a 1-credit job keeps for providers (48.99¢).
    startTestApp({ WORKERS: "0", ...KEYS, PROVIDER_COST_PICTURE_CENTS: "100" }),
  ]);
});
afterAll(async () => {
  await Promise.all([studio?.close(), keyed?.close(), dear?.close()]);
});

describe("GET /workflow/estimate shows the provider time and cost", () => {
  it("is 0 with the built-in studio and counts pictures and voice characters with generated models", async () => {
    const plain = await signUp(studio, "cost-plain");
    await givePresenter(studio, plain.jwt);
    const none = await plain.client.post("/workflow/estimate", { type: "avatar", formats: ["9:16"] });
    expect(none.status, JSON.stringify(none.body)).toBe(200);
    expect(none.body.data.provider).toEqual({ seconds: 0, pictures: 0, characters: 0, costCents: 0 });

    const user = await signUp(keyed, "cost-keyed");
    await givePresenter(keyed, user.jwt);
    const res = await user.client.post("/workflow/estimate", { type: "avatar", formats: ["9:16"] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // 15 s ad: 5 scenes, one generated picture each (0.3¢), and about 225 characters of natural voice (0.03¢ each).
    expect(res.body.data.provider).toEqual({ seconds: 0, pictures: 5, characters: 225, costCents: 8.25 });
    expect(JSON.stringify(res.body.data)).not.toMatch(/\b(fal|replicate|elevenlabs)\b/i);
  });
});

describe("a launch the credits do not cover is refused before charging", () => {
  async function unchanged(user: Account) {
    expect((await user.client.get("/user/credits")).body.data.balance).toBe(10);
    expect(await dear.services.prisma.job.count({ where: { userId: user.id } })).toBe(0);
  }

  it("answers 400 on REST, tRPC and GraphQL with what to change, and the balance stays", async () => {
    const user = await signUp(dear, "cost-dear");
    const body = { type: "cinematic", formats: ["9:16", "1:1"] } as const;
    const rest = await user.client.post("/workflow", body);
    expect(rest.status, JSON.stringify(rest.body)).toBe(400);
    expect(rest.body.error).toMatch(/more generation than its 1 credit cover/);
    expect(rest.body.error).toMatch(/fewer formats/);
    expect(rest.body.error).toMatch(/studio's own models/);
    expect(rest.body.error).not.toMatch(/\b(fal|replicate|elevenlabs)\b/i);
    await unchanged(user);

    const error = await trpcClient(dear.url, user.jwt)
      .workflow.launch.mutate({ ...body, formats: [...body.formats] })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(TRPCClientError);
    expect((error as TRPCClientError<any>).data?.code).toBe("BAD_REQUEST");
    expect((error as TRPCClientError<any>).message).toMatch(/studio's own models/);
    await unchanged(user);

    const gql = await graphql(dear.url, "mutation { workflowLaunch(type: cinematic) { jobId cost } }", {}, user.jwt);
    expect(gql.body.errors?.[0]?.extensions?.code, JSON.stringify(gql.body)).toBe("BAD_REQUEST");
    await unchanged(user);
  });

  it("goes through with the studio's own pictures", async () => {
    const user = await signUp(dear, "cost-studio");
    const res = await user.client.post("/workflow", { type: "cinematic", formats: ["9:16"], models: { image: "studio-stills" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await user.client.get("/user/credits")).body.data.balance).toBe(9);
  });
});

describe("admin revenue sets the generation cost against credits sold", () => {
  it("records a launched job's provider cost and sums the period's", async () => {
    const admin = await adminClient(keyed);
    const before = await admin.get("/admin/revenue");
    expect(before.status, JSON.stringify(before.body)).toBe(200);
    expect(before.body.data.providerCost).toEqual({ creditsSold: 0, costCents: 0, jobs: 0 });

    const user = await signUp(keyed, "cost-revenue");
    const launched = await user.client.post("/workflow", { type: "cinematic", formats: ["9:16"] });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    // Five generated pictures at 0.3¢.
    const job = await keyed.services.prisma.job.findUniqueOrThrow({ where: { id: launched.body.data.jobId } });
    expect(job.providerCostCents).toBe(1.5);
    const studioJob = await user.client.post("/workflow", { type: "cinematic", formats: ["9:16"], models: { image: "studio-stills" } });
    expect(studioJob.status).toBe(200);

    // A pack bought and paid (the sandbox checkout) counts its credits as sold.
    const { orderId } = (await user.client.post("/user/credits/purchase", { packId: "pack_25" })).body.data;
    expect((await user.client.post(`/checkout/sandbox/${orderId}`)).status).toBe(200);

    const after = await admin.get("/admin/revenue");
    expect(after.body.data.providerCost).toEqual({ creditsSold: 25, costCents: 1.5, jobs: 1 });
  });
});

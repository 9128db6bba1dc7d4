// Brands: both SPEC 2.4 field sets stored as given and answered together with the brand's id; several
// brands per account on REST, tRPC and GraphQL, one of them the default (GET/POST /api/user/brand); a job
// names one of its own brands (another account's answers 404); and the publishing schedule, validated.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, signUp } from "./support/accounts.ts";
import { graphql, trpcClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let agency: Account;
let other: Account;
beforeAll(async () => {
  app = await startTestApp();
  agency = await signUp(app, "agency");
  other = await signUp(app, "other-agency");
});
afterAll(() => app?.close());

const FULL = {
  brandName: "Brewly",
  brandColors: "#112233, #445566, #778899",
  brandVoice: "Warm and wry",
  targetAudience: "night-shift nurses",
  brandValues: "Honest caffeine",
  industry: "Beverages",
  productDescription: "Cold brew in a can.",
  competitorUrls: "https://rival.example",
  websiteUrl: "https://brewly.example",
  socialLinks: "@brewly",
  logoUrl: "https://brewly.example/logo.png",
  styleGuide: "Lower-case headlines.",
  preferredLanguage: "en",
};

describe("the default brand (GET/POST /api/user/brand)", () => {
  it("stores the full field set as given and answers both sets with the id", async () => {
    const saved = await agency.client.post("/user/brand", FULL);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const read = (await agency.client.get("/user/brand")).body.data;
    expect(read).toMatchObject({ ...FULL, brandColors: "#112233, #445566, #778899", id: saved.body.data.id, isDefault: true });
    // The short set, filled from the full one.
    expect(read).toMatchObject({
      name: "Brewly",
      tone: "Warm and wry",
      colors: { primary: "#112233", secondary: "#445566", accent: "#778899" },
    });
  });

  it("stores the short field set with its colors object and answers the full set too", async () => {
    const saved = await agency.client.post("/user/brand", {
      name: "Brewly Two",
      tone: "Punchy",
      industry: "Coffee",
      targetAudience: "students",
      colors: { primary: "#ff0000", accent: "#00ff00" },
    });
    expect(saved.status).toBe(200);
    const read = (await agency.client.get("/user/brand")).body.data;
    expect(read).toMatchObject({ name: "Brewly Two", brandName: "Brewly Two", tone: "Punchy", brandVoice: "Punchy", industry: "Coffee" });
    expect(read.colors).toEqual({ primary: "#ff0000", accent: "#00ff00" });
    expect(read.brandColors).toBe("#ff0000, #00ff00");
    // Still the same (default) brand.
    expect(read.id).toBe(saved.body.data.id);
    expect(read.productDescription).toBe("Cold brew in a can.");
  });

  it("refuses a bad colour with a 400 that names the field", async () => {
    const res = await agency.client.post("/user/brand", { colors: { primary: "red" } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/colors\.primary must be a hex colour/);
  });
});

describe("several brands per account", () => {
  it("lists, creates, updates and deletes brands over REST; the default follows", async () => {
    const before = (await agency.client.get("/user/brands")).body.data as any[];
    expect(before).toHaveLength(1);
    const created = await agency.client.post("/user/brands", { name: "Sleepwell", colors: { primary: "#000080" } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.data).toMatchObject({ name: "Sleepwell", brandName: "Sleepwell", brandColors: "#000080", isDefault: false });
    const id = created.body.data.id;

    const updated = await agency.client.patch(`/user/brands/${id}`, { brandVoice: "Calm", makeDefault: true });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.data).toMatchObject({ id, tone: "Calm", brandVoice: "Calm", name: "Sleepwell", isDefault: true });
    // GET /user/brand is now that brand.
    expect((await agency.client.get("/user/brand")).body.data.id).toBe(id);
    const listed = (await agency.client.get("/user/brands")).body.data as any[];
    expect(listed.map((b) => [b.id, b.isDefault])).toEqual([
      [id, true],
      [before[0].id, false],
    ]);

    const deleted = await agency.client.delete(`/user/brands/${id}`);
    expect(deleted.body.data).toEqual({ id, deleted: true, defaultBrandId: before[0].id });
    expect((await agency.client.get("/user/brand")).body.data.id).toBe(before[0].id);
  });

  it("asks for a name when creating a brand", async () => {
    const res = await agency.client.post("/user/brands", { industry: "Tea" });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/name is required/);
  });

  it("works on tRPC and GraphQL", async () => {
    const trpc = trpcClient(app.url, agency.jwt);
    const made = await trpc.brand.create.mutate({ brandName: "Via tRPC", industry: "Tea" });
    expect(made).toMatchObject({ name: "Via tRPC", brandName: "Via tRPC", isDefault: false });
    expect(await trpc.brand.update.mutate({ id: made.id, tone: "Bright" })).toMatchObject({ brandVoice: "Bright" });
    expect((await trpc.brand.list.query()).map((b) => b.id)).toContain(made.id);

    const gql = await graphql(
      app.url,
      `mutation { brandCreate(name: "Via GraphQL", colors: { primary: "#123456" }) { id name brandName brandColors isDefault } }`,
      {},
      agency.jwt,
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.brandCreate).toMatchObject({
      name: "Via GraphQL",
      brandName: "Via GraphQL",
      brandColors: "#123456",
      isDefault: false,
    });
    const gqlId = gql.body.data.brandCreate.id;
    const list = await graphql(app.url, `{ brandList { id name } }`, {}, agency.jwt);
    expect(list.body.data.brandList.map((b: any) => b.id)).toEqual(expect.arrayContaining([made.id, gqlId]));
    const gone = await graphql(app.url, `mutation($id: String!) { brandDelete(id: $id) { deleted } }`, { id: gqlId }, agency.jwt);
    expect(gone.body.data.brandDelete.deleted).toBe(true);
    await trpc.brand.delete.mutate({ id: made.id });
  });

  it("answers 404 for another account's brand on every operation", async () => {
    const mine = (await agency.client.get("/user/brand")).body.data.id;
    expect((await other.client.get(`/user/brands/${mine}`)).status).toBe(404);
    expect((await other.client.patch(`/user/brands/${mine}`, { tone: "Stolen" })).status).toBe(404);
    expect((await other.client.delete(`/user/brands/${mine}`)).status).toBe(404);
    const trpc = trpcClient(app.url, other.jwt);
    await expect(trpc.brand.update.mutate({ id: mine, tone: "x" })).rejects.toMatchObject({ data: { code: "NOT_FOUND" } });
    const gql = await graphql(app.url, `mutation($id: String!) { brandDelete(id: $id) { deleted } }`, { id: mine }, other.jwt);
    expect(gql.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    // A job naming it: 404 before anything is charged.
    const launch = await other.client.post("/workflow", { type: "painpoint", concept: "Cold brew for nurses", brand: mine });
    expect(launch.status).toBe(404);
    expect(launch.body.error).toMatch(/Brand not found/);
    // Untouched.
    expect((await agency.client.get(`/user/brands/${mine}`)).body.data.tone).toBe("Punchy");
  });
});

describe("the publishing schedule", () => {
  const GOOD = {
    platforms: ["tiktok", "instagram"],
    weekdays: ["mon", "thu"],
    times: ["18:00", "09:30"],
    timezone: "Europe/Paris",
    frequency: "weekly",
  };

  it("is null until saved, then answers what was saved", async () => {
    expect((await agency.client.get("/user/brand/schedule")).body.data).toBeNull();
    const saved = await agency.client.post("/user/brand/schedule", GOOD);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const read = (await agency.client.get("/user/brand/schedule")).body.data;
    expect(read).toMatchObject({ ...GOOD, times: ["09:30", "18:00"] });
    // Each account has its own.
    expect((await other.client.get("/user/brand/schedule")).body.data).toBeNull();
  });

  it.each([
    [{ platforms: ["myspace"] }, /platforms must each be one of tiktok/],
    [{ platforms: [] }, /platforms needs at least one/],
    [{ weekdays: ["funday"] }, /weekdays must each be one of mon/],
    [{ times: ["25:00"] }, /times must be 24-hour times written HH:MM/],
    [{ times: ["9:30"] }, /HH:MM/],
    [{ timezone: "Mars/Olympus_Mons" }, /timezone must be an IANA time zone/],
    [{ frequency: "hourly" }, /frequency must be one of daily, weekly/],
  ])("refuses %j with a 400 saying what to send", async (change, message) => {
    const res = await agency.client.post("/user/brand/schedule", { ...GOOD, ...change });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });
});

// The built-in assistant (no language model) reads each message in its thread: "and last week?" re-asks
// the performance question for the new period, "the second one" picks from the list it just gave,
// "that brand" is the brand it last used, "make it 6 weeks" / "double the budget" revise the plan,
// "go ahead" confirms a proposed launch; and without that context it says what it can do instead.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, signUp } from "./support/accounts.ts";
import { ask } from "./support/chat.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

async function ingest(account: Account, creativeId: string, date: string, impressions: number, extra: Record<string, unknown> = {}) {
  const res = await account.client.post("/workflow/performance", {
    creativeId,
    date,
    impressions,
    clicks: impressions / 100,
    conversions: 1,
    spend: 10,
    revenue: 30,
    ...extra,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe("follow-ups of a performance answer", () => {
  it('"and last week?" asks the same question again for the last 7 days', async () => {
    const account = await signUp(app, "ctx-period");
    await ingest(account, "spring-ad", daysAgo(1), 4_000);
    await ingest(account, "spring-ad", daysAgo(20), 6_000);
    const first = await ask(app, account, { message: "How are my ads doing?" });
    expect(first.tools[0]).toMatchObject({ name: "read_performance", arguments: { days: 30 } });
    expect(first.text).toContain("Your ads had 10000 impressions");

    const threadId = first.done.threadId;
    const lastWeek = await ask(app, account, { message: "and last week?", threadId });
    expect(lastWeek.tools).toEqual([
      { name: "read_performance", arguments: { days: 7 }, result: expect.objectContaining({ days: 7, from: daysAgo(6) }) },
    ]);
    expect(lastWeek.text).toMatch(/^For the last 7 days: Your ads had 4000 impressions/);
    const twoDays = await ask(app, account, { message: "what about the last 2 days?", threadId });
    expect(twoDays.tools[0]).toMatchObject({ arguments: { days: 2 } });
    expect(twoDays.text).toContain("4000 impressions");
  });

  it('"the second one" picks the second ad of the last answer, with its own figures', async () => {
    const account = await signUp(app, "ctx-ordinal");
    await ingest(account, "alpha-ad", daysAgo(2), 1_000);
    await ingest(account, "beta-ad", daysAgo(2), 3_000);
    const first = await ask(app, account, { message: "show my performance" });
    expect(first.tools[0]!.result.ads.creatives.map((c: any) => c.creativeId)).toEqual(["alpha-ad", "beta-ad"]);
    const threadId = first.done.threadId;
    const second = await ask(app, account, { message: "Tell me more about the second one", threadId });
    expect(second.tools[0]).toMatchObject({ name: "read_performance", arguments: { days: 30 } });
    expect(second.text).toMatch(
      /^The second ad, beta-ad, in the last 30 days: 3000 impressions, 30 clicks and 1 conversions \(CTR 1\.00 %\)/,
    );
    expect(second.text).toContain("ROAS 3.00×");
    const missing = await ask(app, account, { message: "and the fifth one?", threadId });
    expect(missing.tools).toEqual([]);
    expect(missing.text).toBe("My last answer listed 2 ads, so there is no #5 to pick.");
  });

  it('"the second one" after a project list tells that project\'s status', async () => {
    const account = await signUp(app, "ctx-projects");
    for (const concept of ["Cold brew at six", "Oat milk for night shifts"]) {
      expect((await account.client.post("/workflow", { type: "staticad", concept })).status).toBe(200);
    }
    const list = await ask(app, account, { message: "status of my projects" });
    const projects = list.tools[0]!.result.projects;
    expect(projects).toHaveLength(2);
    const second = await ask(app, account, { message: "the 2nd one", threadId: list.done.threadId });
    expect(second.tools[0]).toMatchObject({ name: "project_status", arguments: { projectId: projects[1].id } });
    // The answer names the project and links to it (its studio page, by the project's id).
    expect(second.text).toMatch(
      new RegExp(
        `^The second project, ${projects[1].name}: Your project: \\[${projects[1].name}\\]\\(/studio/jobs/${projects[1].id}\\) \\(Static Ad\\) is queued`,
      ),
    );
  });
});

describe("brands in a conversation", () => {
  it('recognises a brand by name, and "that brand" is the brand the thread used last', async () => {
    const account = await signUp(app, "ctx-brand");
    const north = await account.client.post("/user/brands", { brandName: "Northwind" });
    const brew = await account.client.post("/user/brands", { brandName: "Brewly" });
    expect(brew.status, JSON.stringify(brew.body)).toBe(200);
    const brewId = brew.body.data.id as string;
    await ingest(account, "brew-ad", daysAgo(1), 2_000, { brandId: brewId });
    await ingest(account, "north-ad", daysAgo(1), 5_000, { brandId: north.body.data.id });

    const asked = await ask(app, account, { message: "How is Brewly doing?" });
    expect(asked.tools[0]).toMatchObject({
      name: "read_performance",
      arguments: { brandId: brewId },
      result: { brand: { id: brewId, name: "Brewly" }, ads: { totals: { impressions: 2_000 } } },
    });
    expect(asked.text).toMatch(/^For Brewly: Your ads had 2000 impressions/);
    expect(asked.text).not.toContain("north-ad");

    const estimate = await ask(app, account, { message: "how much is a static ad for that brand?", threadId: asked.done.threadId });
    expect(estimate.tools[0]).toMatchObject({ name: "estimate_launch", arguments: { type: "staticad", brand: brewId } });
    expect(estimate.text).toMatch(/^For Brewly: Static Ad/);

    const fresh = await ask(app, account, { message: "how is that brand doing?" });
    expect(fresh.tools).toEqual([]);
    expect(fresh.text).toBe("Which brand do you mean? This conversation has not used one yet. Your brands: Northwind, Brewly.");
  });
});

describe("confirming and revising", () => {
  it('"go ahead" confirms the proposed launch; "launch it" after an estimate proposes that launch', async () => {
    const account = await signUp(app, "ctx-confirm");
    const proposed = await ask(app, account, { message: "Launch a static ad about our cold brew" });
    expect(proposed.tools[0]).toMatchObject({ name: "launch_workflow", result: { proposed: true } });
    const confirmed = await ask(app, account, { message: "Go ahead!", threadId: proposed.done.threadId });
    expect(confirmed.tools[0]).toMatchObject({ name: "confirm_launch", result: { launched: true, creditsCharged: 1 } });
    expect((await account.client.get("/user/credits")).body.data.balance).toBe(9);

    const estimate = await ask(app, account, { message: "How much is a cinematic ad?" });
    const launchIt = await ask(app, account, { message: "ok, launch it", threadId: estimate.done.threadId });
    expect(launchIt.tools[0]).toMatchObject({ name: "launch_workflow", arguments: { type: "cinematic" }, result: { proposed: true } });
    const yes = await ask(app, account, { message: "yes", threadId: estimate.done.threadId });
    expect(yes.tools[0]).toMatchObject({ name: "confirm_launch", result: { launched: true } });
    expect(await app.services.prisma.job.count({ where: { userId: account.id, type: "cinematic" } })).toBe(1);
  });

  it('"make it 6 weeks" and "double the budget" revise the plan just made', async () => {
    const account = await signUp(app, "ctx-plan");
    const plan = await ask(app, account, { message: "Plan a 4-week campaign with 8 credits" });
    expect(plan.tools[0]).toMatchObject({ name: "plan_campaign", arguments: { weeks: 4, budgetCredits: 8 } });
    const threadId = plan.done.threadId;

    const longer = await ask(app, account, { message: "make it 6 weeks", threadId });
    expect(longer.tools[0]).toMatchObject({
      name: "plan_campaign",
      arguments: { weeks: 6, budgetCredits: 8 },
      result: { budgetCredits: 8 },
    });
    expect(longer.tools[0]!.result.weeks).toHaveLength(6);
    expect(longer.text).toMatch(/^Revised: 6 weeks instead of 4\. Here is a 6-week plan/);

    const richer = await ask(app, account, { message: "double the budget", threadId });
    expect(richer.tools[0]).toMatchObject({
      name: "plan_campaign",
      arguments: { weeks: 6, budgetCredits: 16 },
      result: { budgetCredits: 16 },
    });
    expect(richer.text).toMatch(/^Revised: a budget of 16 credits instead of 8\./);
    expect(richer.tools[0]!.result.totalCredits).toBeGreaterThan(longer.tools[0]!.result.totalCredits);
  });

  it("without anything earlier to refer to, says what it can do instead", async () => {
    const account = await signUp(app, "ctx-none");
    for (const message of ["the second one", "and last week?", "double the budget"]) {
      const answer = await ask(app, account, { message });
      expect(answer.tools, message).toEqual([]);
      expect(answer.text, message).toMatch(/^That is not something I can do\. What I can do instead: 1\./);
    }
  });
});

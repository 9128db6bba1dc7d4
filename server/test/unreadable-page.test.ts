// Never charge for a page we did not read. Inspiration (clone), Brand Clone and Local Audit are
// made from their page: a page that answers 404, cannot be resolved or is empty refuses the launch with a
// 400 in words, before anything is charged (REST, GraphQL, tRPC). A page read at launch that fails when the
// worker reads it fails the job and refunds it in full, with no audit, analysis or brand kit in the result.
// The network is msw behind a fake resolver; the pages that fail later count their requests.
import { TRPCClientError } from "@trpc/client";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Resolver } from "../src/modules/net/safe-fetch.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { graphql, trpcClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";
import { settledJob } from "./support/wait-for.ts";

const DNS: Record<string, string[]> = { "shop.example": ["93.184.216.34"], "empty.example": ["93.184.216.36"] };
const resolver: Resolver = async (host) => {
  const answer = DNS[host];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return answer;
};

const PAGE = `<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Joe's Plumbing — Springfield plumbers</title>
<meta name="description" content="Emergency plumbing in Springfield. Free estimate on every job."></head>
<body><h1>Emergency plumbing in Springfield</h1><p>Free estimate, same-day service.</p><a href="/book">Book a visit</a>
<h2>What our customers say</h2><p>“Fixed our boiler in an hour.”</p><a href="tel:+15550100">Call us</a></body></html>`;

/** A page that answers for its first `upFor` requests, then 404: read at launch, gone when the worker reads it. */
function flakyPage(path: string, upFor: number) {
  let served = 0;
  return http.get(`https://shop.example${path}`, () => {
    served += 1;
    return served <= upFor ? HttpResponse.html(PAGE) : new HttpResponse("gone", { status: 404 });
  });
}

const network = setupServer(
  http.get("https://shop.example/missing", () => new HttpResponse("not here", { status: 404 })),
  http.get("https://empty.example/", () => HttpResponse.html("<!doctype html><html><head></head><body></body></html>")),
  // clone and local-audit: the launch reads once, the worker's read_page fails.
  flakyPage("/audit-later", 1),
  flakyPage("/clone-later", 1),
  // brand: the launch and read_page read it, the brand-kit read fails.
  flakyPage("/brand-later", 2),
);

let app: TestApp;
beforeAll(async () => {
  network.listen({ onUnhandledRequest: (request, print) => (new URL(request.url).hostname !== "127.0.0.1" ? print.error() : undefined) });
  app = await startTestApp({ WORKERS: "1", STUDIO_MAX_AD_SECONDS: "2", SIGNUP_CREDITS: "40" }, { resolver });
});
afterAll(async () => {
  await app?.close();
  network.close();
});

/** An account on a plan that offers every type (brand is reserved on trial). */
async function account(prefix: string): Promise<Account> {
  const user = await signUp(app, prefix);
  await app.services.prisma.user.update({ where: { id: user.id }, data: { currentPlanId: "subscription_pro" } });
  return user;
}

const balance = async (user: Account) => (await user.client.get("/user/credits")).body.data.balance as number;
const jobs = (user: Account) => app.services.prisma.job.count({ where: { userId: user.id } });

const waitForJob = (user: Account, jobId: string) => settledJob(user.client, jobId, 90_000);

describe("a page that cannot be read at launch", () => {
  it("refuses Inspiration, Brand Clone and Local Audit over REST with a 400 in words, and charges nothing", async () => {
    const user = await account("unread-rest");
    const cases: [Record<string, unknown>, string][] = [
      [
        { type: "clone", url: "https://shop.example/missing" },
        "We could not read https://shop.example/missing (the site answered 404). Check the address, or paste the page's text as the concept.",
      ],
      [
        { type: "local-audit", url: "https://nowhere.example/shop" },
        "We could not read https://nowhere.example/shop (nowhere.example could not be resolved). Check the address, and that the page loads for visitors without a login.",
      ],
      [
        { type: "brand", url: "https://empty.example/" },
        "We could not read https://empty.example/ (the page has no title, description or pictures). Check the address, or paste the page's text as the concept.",
      ],
    ];
    for (const [body, message] of cases) {
      const res = await user.client.post("/workflow", { concept: "Plumbing you can count on", ...body });
      expect({ status: res.status, body: res.body }).toEqual({
        status: 400,
        body: expect.objectContaining({ success: false, error: message }),
      });
    }
    // A brand whose saved website cannot be read is refused the same way.
    await user.client.post("/user/brand", { name: "Joe's", websiteUrl: "https://shop.example/missing" });
    const fromProfile = await user.client.post("/workflow", { type: "local-audit" });
    expect(fromProfile.status, JSON.stringify(fromProfile.body)).toBe(400);
    expect(fromProfile.body.error).toMatch(/^We could not read https:\/\/shop\.example\/missing \(the site answered 404\)/);
    expect(await balance(user)).toBe(40);
    expect(await jobs(user)).toBe(0);
  });

  it("refuses the same way over GraphQL and tRPC", async () => {
    const user = await account("unread-api");
    const gql = await graphql(
      app.url,
      `mutation($url: String) { workflowLaunch(type: clone, url: $url) { jobId creditsUsed } }`,
      { url: "https://shop.example/missing" },
      user.jwt,
    );
    expect(gql.body.errors?.map((e: any) => ({ message: e.message, code: e.extensions?.code }))).toEqual([
      {
        message: expect.stringMatching(/^We could not read https:\/\/shop\.example\/missing \(the site answered 404\)/),
        code: "BAD_REQUEST",
      },
    ]);
    const error = await trpcClient(app.url, user.jwt)
      .workflow.launch.mutate({ type: "local-audit", url: "https://empty.example/" })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(TRPCClientError);
    expect((error as TRPCClientError<any>).data?.code).toBe("BAD_REQUEST");
    expect((error as TRPCClientError<any>).message).toMatch(/^We could not read https:\/\/empty\.example\/ \(the page has no title/);
    expect(await balance(user)).toBe(40);
    expect(await jobs(user)).toBe(0);
  });
});

describe("a page read at launch that fails when the worker reads it", () => {
  for (const [type, path, cost] of [
    ["local-audit", "/audit-later", 2],
    ["clone", "/clone-later", 3],
    ["brand", "/brand-later", 15],
  ] as const) {
    it(`${type}: the job fails with the reason, is refunded in full, and grades or clones nothing`, { timeout: 120_000 }, async () => {
      const user = await account(`later-${type}`);
      const launched = await user.client.post("/workflow", {
        type,
        url: `https://shop.example${path}`,
        concept: "Plumbing you can count on",
      });
      expect(launched.status, JSON.stringify(launched.body)).toBe(200);
      const job = await waitForJob(user, launched.body.data.jobId);
      expect(job).toMatchObject({ status: "failed", refunded: true });
      expect(job.error).toMatch(new RegExp(`^We could not read https://shop\\.example${path} \\(the site answered 404\\)`));
      expect(job.result?.audit ?? null).toBeNull();
      expect(job.result?.analysis ?? null).toBeNull();
      expect(job.result?.brandKit ?? null).toBeNull();
      expect(await balance(user)).toBe(40);
      // Charged at launch (the page was read then), refunded once in full.
      const moves = await app.services.prisma.creditLedgerEntry.findMany({
        where: { reference: launched.body.data.jobId },
        orderBy: { createdAt: "asc" },
      });
      expect(moves.map((r) => [r.reason, r.delta])).toEqual([
        ["workflow_charge", -cost],
        ["workflow_refund", cost],
      ]);
      if (type === "brand") {
        const profile = await app.services.prisma.brandProfile.findFirst({ where: { userId: user.id } });
        expect((profile?.profile as { brandKit?: unknown } | undefined)?.brandKit ?? null).toBeNull();
      }
    });
  }
});

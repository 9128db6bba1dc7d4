// Attack-run finding 5, in a real browser: a page on another origin cannot frame the SPA, and no page of
// the SPA (every route in web/src/routes.tsx, as a visitor, a signed-in user and an administrator), nor
// /api/docs or GraphiQL, breaks its own Content Security Policy.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, type Page, test } from "@playwright/test";
import { signInAsAdmin, signUpInBrowser } from "./support/browser.ts";

/** The SPA's route table, read from its source so a route added later is visited too. */
const ROUTES = [
  ...readFileSync(new URL("../../web/src/routes.tsx", import.meta.url), "utf8").matchAll(/\{ path: "([^"]+)", access: "(\w+)"/g),
].map(([, path, access]) => ({ path: path!, access: access! }));

/** Every CSP violation a page reports: its `securitypolicyviolation` events and the console's errors. */
function watchViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) seen.push(`${page.url()}: console: ${message.text()}`);
  });
  void page.exposeFunction("reportViolation", (text: string) => seen.push(text));
  void page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const report = (window as unknown as { reportViolation: (text: string) => void }).reportViolation;
      report(
        `${location.pathname}: ${event.violatedDirective} blocked ${event.blockedURI || "inline"} (${event.sourceFile}:${event.lineNumber})`,
      );
    });
  });
  return seen;
}

/** Loads `path` and waits until its page has drawn and its images and videos have loaded (or failed). */
async function visit(page: Page, path: string, ready = "#root > *") {
  const response = await page.goto(path);
  // Under a policy that forbids inline scripts and framing: zero violations means the page obeys it.
  const policy = response?.headers()["content-security-policy"] ?? "";
  expect(policy, path).toContain("frame-ancestors 'none'");
  expect(policy, path).toMatch(/script-src [^;]*'(self|sha256-[^']+)'/);
  expect(policy, path).not.toMatch(/script-src [^;]*'unsafe-(inline|eval)'/);
  await expect(page.locator(ready).first()).toBeAttached();
  await page.waitForLoadState("load");
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          Array.from(document.images).every((image) => image.complete) &&
          Array.from(document.querySelectorAll("video, audio")).every(
            (media) =>
              (media as HTMLMediaElement).readyState > 0 ||
              (media as HTMLMediaElement).error ||
              (media as HTMLMediaElement).preload === "none",
          ),
      ),
    )
    .toBe(true);
}

test.describe("security headers in Chromium", () => {
  let other: Server;
  let otherOrigin: string;
  test.beforeAll(async ({ baseURL }) => {
    // A page on another origin (another host and port) that tries to show the billing page in a frame.
    other = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(
        `<!doctype html><title>Someone else's page</title><iframe id="victim" src="${baseURL}/billing" width="800" height="600"></iframe>`,
      );
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  });
  test.afterAll(async () => {
    await new Promise((resolve) => other.close(resolve));
  });

  test("another origin's page cannot frame /billing", async ({ page, baseURL }) => {
    await signUpInBrowser(page, "e2e-framed");
    const refused = page.waitForEvent("console", (message) => /frame-ancestors/.test(message.text()));
    await page.goto(otherOrigin);
    expect((await refused).text()).toContain(
      `Framing '${new URL(baseURL!).origin}/' violates the following Content Security Policy directive`,
    );
    // The frame holds Chromium's error page, not the SPA.
    const frame = page.frame({ url: (url) => url.href !== `${otherOrigin}/` });
    expect(frame).not.toBeNull();
    await expect(frame!.locator("#root")).toHaveCount(0);
    await expect(page.frameLocator("#victim").getByTestId("billing-balance")).toHaveCount(0);
  });

  test("a script injected into a page of the SPA does not run, and the browser says why", async ({ page }) => {
    const violations = watchViolations(page);
    await visit(page, "/");
    const ran = await page.evaluate(() => {
      const script = document.createElement("script");
      script.textContent = "window.injectedRan = true";
      document.head.append(script);
      return (window as unknown as { injectedRan?: boolean }).injectedRan ?? false;
    });
    expect(ran).toBe(false);
    await expect.poll(() => violations.join("\n")).toContain("script-src-elem blocked inline");
  });

  test("no page of the SPA, nor /api/docs or GraphiQL, breaks the Content Security Policy", async ({ page, baseURL }) => {
    test.setTimeout(180_000);
    const violations = watchViolations(page);

    // A visitor: the public and sign-in pages; the API's documentation; GraphiQL (development).
    for (const { path } of ROUTES.filter((route) => route.access === "public" || route.access === "guest")) await visit(page, path);
    await visit(page, "/api/docs", ".swagger-ui .info");
    await visit(page, "/graphql", ".graphiql-container");
    await expect(page.locator(".graphiql-container .monaco-editor").first()).toBeVisible();

    // A signed-in user with a finished ad (its video, thumbnails and voice) and a sandbox order.
    await signUpInBrowser(page, "e2e-csp");
    const launched = await page.request.post("/api/workflow", {
      data: { type: "cinematic", concept: "A lamp that wakes you like sunrise" },
    });
    expect(launched.status()).toBe(200);
    const jobId = (await launched.json()).data.jobId as string;
    await expect
      .poll(async () => (await (await page.request.get(`/api/workflow/job?jobId=${jobId}`)).json()).data.status, { timeout: 90_000 })
      .toBe("completed");
    await visit(page, "/billing");
    await page.getByTestId("pack-pack_25").getByRole("button", { name: "Buy 25 credits" }).click();
    await expect(page).toHaveURL(/\/billing\/sandbox\/[\w-]+$/);
    const orderId = page.url().split("/").pop()!;
    const profile = await (await page.request.get("/api/user/profile")).json();
    const params: Record<string, string> = { jobId, orderId, id: profile.data.id };
    const concrete = (path: string) => path.replace(/:(\w+)/g, (_, name: string) => params[name] ?? name);

    for (const { path } of ROUTES.filter((route) => route.access === "user")) await visit(page, concrete(path));
    await visit(page, `/studio/jobs/${jobId}`, "[data-testid=job-status][data-status=completed]");

    // An administrator: every admin page.
    const admin = await page.context().browser()!.newContext({ baseURL });
    const adminPage = await admin.newPage();
    const adminViolations = watchViolations(adminPage);
    await signInAsAdmin(adminPage);
    for (const { path } of ROUTES.filter((route) => route.access === "admin")) await visit(adminPage, concrete(path));
    await admin.close();

    expect(ROUTES.length).toBeGreaterThan(20);
    expect([...violations, ...adminViolations]).toEqual([]);
  });
});

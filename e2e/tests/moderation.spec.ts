// Notice and action in the SPA (the EU Digital Services Act's procedure): a reporter reports a rendered ad by its media address, an
// administrator removes it from the moderation queue with a statement of reasons (its media go
// offline), the owner sees the decision on the project page and appeals, and the appeal, reversed by
// the administrator, brings the media back.
import { mkdirSync } from "node:fs";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { signInAsAdmin, signUpInBrowser } from "./support/browser.ts";

const SHOTS = "test-results/moderation";
mkdirSync(SHOTS, { recursive: true });

async function newPage(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  return context.newPage();
}

test("notice → removal → appeal → reversal", async ({ page, browser, baseURL }) => {
  test.setTimeout(120_000);
  // The owner makes an ad.
  await signUpInBrowser(page, "e2e-mod-owner");
  const launched = await page.request.post("/api/workflow", {
    data: { type: "staticad", concept: "Handmade oak chairs", formats: ["1:1"] },
  });
  expect(launched.status(), await launched.text()).toBe(200);
  const jobId = (await launched.json()).data.jobId as string;
  await expect
    .poll(async () => (await (await page.request.get(`/api/workflow/job?jobId=${jobId}`)).json()).data.status, { timeout: 60_000 })
    .toBe("completed");
  const job = (await (await page.request.get(`/api/workflow/job?jobId=${jobId}`)).json()).data;
  const mediaUrl = job.result.assets[0].url as string;
  const mediaPath = new URL(mediaUrl).pathname;
  expect((await page.request.get(mediaPath)).status()).toBe(200);

  // A reporter, in their own browser, sends a notice about the media address.
  const reporter = await newPage(browser, baseURL);
  await signUpInBrowser(reporter, "e2e-mod-reporter");
  await reporter.goto(`/report?target=${encodeURIComponent(mediaUrl)}`);
  const form = reporter.getByTestId("report-form");
  await expect(form.getByTestId("report-target")).toHaveValue(mediaUrl);
  await form.getByTestId("report-category").selectOption("intellectual_property");
  await form.getByTestId("report-explanation").fill("This ad copies our registered chair design and logo.");
  await form.getByTestId("report-name").fill("Rita Reporter");
  // Without the good-faith statement the form says what is missing, in place.
  await form.getByTestId("report-submit").click();
  await expect(form.getByRole("alert").filter({ hasText: "good faith" })).toBeVisible();
  await form.getByTestId("report-good-faith").check();
  await form.getByTestId("report-submit").click();
  const reference = (await reporter.getByTestId("report-reference").textContent()) ?? "";
  expect(reference).toMatch(/^DSA-[A-Z2-9]{10}$/);

  // The administrator removes it from the queue.
  const admin = await newPage(browser, baseURL);
  await signInAsAdmin(admin);
  await admin.goto("/admin/moderation?status=pending");
  const item = admin.getByTestId("queue-item").filter({ hasText: reference });
  await expect(item).toContainText("This ad copies our registered chair design");
  await item.getByTestId("resolve-action").selectOption("remove");
  await item.getByTestId("resolve-statement").fill("The ad reproduces the reporter's registered design without permission.");
  await admin.screenshot({ path: `${SHOTS}/queue.png`, fullPage: true });
  await item.getByTestId("resolve-submit").click();
  await expect(admin.getByTestId("queue-empty")).toBeVisible();
  expect((await page.request.get(mediaPath)).status()).toBe(404);

  // The owner sees the decision on the project page and appeals.
  await page.goto(`/studio/jobs/${jobId}`);
  const decision = page.getByTestId("moderation-decision");
  await expect(decision).toHaveAttribute("data-action", "remove");
  await expect(decision.getByTestId("moderation-statement")).toContainText("registered design without permission");
  await decision.getByTestId("appeal-open").click();
  await decision.getByTestId("appeal-explanation").fill("The design is our own; we hold the registration since 2019.");
  await decision.getByTestId("appeal-submit").click();
  await expect(decision.getByTestId("appeal-status")).toHaveAttribute("data-status", "pending");
  await expect(decision.getByTestId("appeal-open")).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/appealed.png`, fullPage: true });

  // The administrator reverses the decision on appeal; the media come back and the owner sees why.
  await admin.goto("/admin/moderation?kind=appeal&status=pending");
  const appeal = admin.getByTestId("queue-item").filter({ hasText: "we hold the registration" });
  await appeal.getByTestId("resolve-action").selectOption("dismiss");
  await appeal.getByTestId("resolve-statement").fill("The owner proved the registration is theirs; the removal is reversed.");
  await appeal.getByTestId("resolve-submit").click();
  await expect(admin.getByTestId("queue-empty")).toBeVisible();
  expect((await page.request.get(mediaPath)).status()).toBe(200);
  await page.reload();
  await expect(page.getByTestId("appeal-status")).toHaveAttribute("data-status", "reversed");
  await expect(page.getByTestId("appeal-status")).toContainText("the removal is reversed");
});

test("the admin moderation page and the report page fit a 390 px phone", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } });
  const phone = await context.newPage();
  await signInAsAdmin(phone);
  for (const path of ["/admin/moderation", "/report"]) {
    await phone.goto(path);
    await expect(phone.getByRole("heading", { level: 1 })).toBeVisible();
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, path).toBeLessThanOrEqual(0);
  }
});

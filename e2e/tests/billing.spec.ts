// Billing in Chromium: the service runs without STRIPE_SECRET_KEY, so buying goes through the built-in
// sandbox checkout. Buying a pack raises the balance live, the invoice appears and downloads as a PDF, a
// plan unlocks the API key (Billing links to it in Settings, beside the webhooks; shown once, then
// revoked), an analytics key reads but cannot launch, and the page fits a 390 px phone.
import { expect, test } from "@playwright/test";
import { expectNoSidewaysScroll, signUpInBrowser } from "./support/browser.ts";

const shot = (name: string) => test.info().outputPath(name);

test("buy a credit pack through the sandbox checkout: the balance rises, the invoice downloads as a PDF", async ({ page }) => {
  await signUpInBrowser(page, "e2e-billing");
  await page.getByRole("link", { name: "Billing" }).first().click();
  await expect(page).toHaveURL(/\/billing$/);
  await expect(page.getByTestId("billing-balance")).toHaveText("10");
  await expect(page.getByTestId("sandbox-mode")).toBeVisible();
  await expect(page.getByTestId("pack-pack_25")).toContainText("$22.99");
  await expect(page.getByTestId("plan-subscription_pro")).toContainText("100 credits a month");
  await expect(page.getByTestId("invoice-list")).toHaveCount(0);

  await page.getByTestId("pack-pack_25").getByRole("button", { name: "Buy 25 credits" }).click();
  await expect(page).toHaveURL(/\/billing\/sandbox\/[\w-]+$/);
  await expect(page.getByTestId("sandbox-banner")).toContainText("SANDBOX CHECKOUT: no real payment");
  await expect(page.getByTestId("sandbox-amount")).toHaveText("$22.99");
  await page.getByRole("button", { name: /Confirm test payment/ }).click();
  await expect(page.getByTestId("sandbox-paid")).toContainText("Your balance is now 35 credits");
  // The header's balance changed live, from the payment's balance event.
  await expect(page.getByTestId("balance-pill")).toContainText("35");

  await page.getByTestId("sandbox-back").click();
  await expect(page).toHaveURL(/\/billing$/);
  await expect(page.getByTestId("billing-balance")).toHaveText("35");
  const invoices = page.getByTestId("invoice-list");
  await expect(invoices).toContainText("25-credit pack");
  await expect(invoices).toContainText("$22.99");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    invoices.getByRole("button", { name: /Download INV-\d+ as PDF/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^INV-\d{6}\.pdf$/);
  const path = await download.path();
  const { readFileSync } = await import("node:fs");
  expect(readFileSync(path).subarray(0, 5).toString()).toBe("%PDF-");
});

test("a plan bought in the sandbox unlocks the API key, shown once and then revoked", async ({ page, request }) => {
  await signUpInBrowser(page, "e2e-plan");
  await page.goto("/billing");
  await expect(page.getByTestId("api-key-ineligible")).toContainText("Agency and Enterprise");
  await expect(page.getByTestId("api-key-settings-link")).toHaveCount(0);
  await page.getByTestId("plan-subscription_agency").getByRole("button", { name: "Choose Agency" }).click();
  await expect(page.getByTestId("sandbox-amount")).toHaveText("$199");
  await page.getByRole("button", { name: /Confirm test payment/ }).click();
  await expect(page.getByTestId("sandbox-paid")).toContainText("your plan is Agency");
  await page.getByTestId("sandbox-back").click();

  await expect(page.getByTestId("billing-plan")).toHaveText("Agency");
  await expect(page.getByTestId("billing-balance")).toHaveText("310");
  // The key is managed in Settings, with the webhooks; Billing links there once the plan allows it.
  await expect(page.getByTestId("api-key-panel")).toHaveCount(0);
  await page.getByTestId("api-key-settings-link").click();
  await expect(page).toHaveURL(/\/settings#api-key$/);
  await expect(page.getByTestId("webhook-panel")).toBeVisible();
  const panel = page.getByTestId("api-key-panel");
  await panel.getByRole("button", { name: "Generate key" }).click();
  await expect(panel.getByTestId("api-key-value")).toHaveText(/^ca_[\w-]{20,}$/);
  const key = (await panel.getByTestId("api-key-value").textContent())!;
  // `request` has its own cookie jar: only the key authenticates these calls.
  const withKey = await request.get("/api/user/credits", { headers: { authorization: `Bearer ${key}` } });
  expect(withKey.status()).toBe(200);
  // Shown once: after a reload only the status remains.
  await page.reload();
  await expect(panel.getByText("Your key is active.")).toBeVisible();
  await expect(panel.getByTestId("api-key-value")).toHaveCount(0);
  await panel.getByRole("button", { name: "Revoke key" }).click();
  await page.getByTestId("api-key-confirm").getByRole("button", { name: "Revoke key" }).click();
  await expect(panel.getByText("You have no key yet.")).toBeVisible();
  const revoked = await request.get("/api/user/credits", { headers: { authorization: `Bearer ${key}` } });
  expect(revoked.status()).toBe(401);
});

test("an analytics key for a partner: made in Settings, shown once, it reads through GraphQL and cannot launch", async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signUpInBrowser(page, "e2e-analytics-key");
  await page.goto("/billing");
  await page.getByTestId("plan-subscription_agency").getByRole("button", { name: "Choose Agency" }).click();
  await page.getByRole("button", { name: /Confirm test payment/ }).click();
  await expect(page.getByTestId("sandbox-paid")).toContainText("your plan is Agency");
  await page.goto("/settings#api-key");
  const row = page.getByTestId("analytics-key");
  await expect(row).toContainText("You have no analytics key yet.");
  await row.getByRole("button", { name: "Generate analytics key" }).click();
  await expect(row.getByTestId("analytics-key-value")).toHaveText(/^ca_[\w-]{20,}$/);
  const key = (await row.getByTestId("analytics-key-value").textContent())!;
  await expect(row).toContainText("Your analytics key is active.");
  // The full key is a separate one: none was made.
  await expect(page.getByTestId("api-key-panel")).toContainText("You have no key yet.");
  await expectNoSidewaysScroll(page);
  // `request` has its own cookie jar: only the key authenticates these calls.
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const read = await request.post("/graphql", { headers, data: { query: "{ viewer { email projects(first: 5) { totalCount } } }" } });
  expect(read.status()).toBe(200);
  const body = await read.json();
  expect(body.errors).toBeUndefined();
  expect(body.data.viewer.projects.totalCount).toBe(0);
  const launch = await request.post("/api/workflow", { headers, data: { type: "ugc", input: {} } });
  expect(launch.status()).toBe(403);
  // Shown once: after a reload only the status remains; replacing it asks first.
  await page.reload();
  await expect(row.getByTestId("analytics-key-value")).toHaveCount(0);
  await row.getByRole("button", { name: "Replace analytics key" }).click();
  await expect(page.getByTestId("analytics-key-confirm")).toContainText("loses access at once");
});

test("Billing and the sandbox checkout fit a 390 px phone", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signUpInBrowser(page, "e2e-billing-phone");
  await page.goto("/billing");
  await expect(page.getByTestId("pack-pack_10")).toBeVisible();
  await page.screenshot({ path: shot("billing-390.png"), fullPage: true });
  await expectNoSidewaysScroll(page);
  await page.getByTestId("pack-pack_10").getByRole("button", { name: "Buy 10 credits" }).click();
  await expect(page.getByTestId("sandbox-banner")).toBeVisible();
  await page.screenshot({ path: shot("sandbox-checkout-390.png") });
  await expectNoSidewaysScroll(page);
  await page.getByRole("button", { name: /Confirm test payment/ }).click();
  await expect(page.getByTestId("sandbox-paid")).toContainText("20 credits");
  await page.getByTestId("sandbox-back").click();
  await expect(page.getByTestId("invoice-list")).toBeVisible();
  await expectNoSidewaysScroll(page);
});

// The Performance page: a brand's creatives with CTR and ROAS over time, the fading one
// flagged, the loop's recommendation, and Execute asking first (it spends credits: the price and the balance
// after; backing out spends nothing), then launching for real (the launched project by name and the
// credits charged shown in place). Also on a 390 px phone.
import { mkdirSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { expectNoSidewaysScroll, signUpInBrowser } from "./support/browser.ts";

const SHOTS = "test-results/performance";
mkdirSync(SHOTS, { recursive: true });

const day = (n: number) => `2026-03-${String(n + 1).padStart(2, "0")}`;

/** A brand with a steady creative and one whose CTR falls by a third in its last 3 days (through the API). */
async function brandWithFigures(page: Page): Promise<void> {
  const brand = await page.request.post("/api/user/brands", { data: { name: "Brewly" } });
  expect(brand.status()).toBe(200);
  const brandId = (await brand.json()).data.id as string;
  for (const [creativeId, clicks] of [
    ["steady-ad", (i: number) => 100 + (i % 3)],
    ["fading-ad", (i: number) => (i < 7 ? 120 : 70)],
  ] as const) {
    for (let i = 0; i < 10; i++) {
      const res = await page.request.post("/api/workflow/performance", {
        data: { creativeId, brandId, date: day(i), impressions: 5000, clicks: clicks(i), conversions: 10, spend: 100, revenue: 300 },
      });
      expect(res.status()).toBe(200);
    }
  }
}

async function balance(page: Page): Promise<number> {
  return (await (await page.request.get("/api/user/credits")).json()).data.balance as number;
}

test("charts, the decay flag, and executing the loop's recommendation", async ({ page }) => {
  await signUpInBrowser(page, "e2e-perf");
  await page.goto("/performance");
  await expect(page.getByTestId("performance-no-brand")).toBeVisible();

  await brandWithFigures(page);
  await page.goto("/dashboard");
  await page.getByRole("link", { name: "Performance" }).first().click();
  await expect(page).toHaveURL(/\/performance$/);

  const fading = page.locator('[data-creative="fading-ad"]');
  const steady = page.locator('[data-creative="steady-ad"]');
  await expect(fading.getByTestId("decay-flag")).toHaveText("Decaying");
  await expect(fading.getByTestId("decay-reason")).toContainText("CTR fell");
  await expect(steady.getByTestId("decay-flag")).toHaveCount(0);
  await expect(steady).toContainText("Steady");
  await expect(fading.getByTestId("ctr-chart").locator("path.metric-chart-line")).toHaveCount(1);
  await expect(fading.getByTestId("roas-chart")).toContainText("latest 3.00×");

  await expect(page.getByTestId("loop-action")).toHaveAttribute("data-action", "ITERATE");
  await expect(page.getByTestId("loop-reasoning")).toContainText("“fading-ad” is wearing out");
  await expect(page.getByTestId("loop-target")).toContainText("fading-ad");
  await expect(page.getByTestId("loop-effect")).toHaveText("Launches Static Ad to improve “fading-ad”, for 1 credit.");

  // Execute shows the price and asks; backing out spends nothing.
  const before = await balance(page);
  await expect(page.getByTestId("loop-execute")).toHaveText("Execute · 1 credit");
  await page.getByTestId("loop-execute").click();
  const dialog = page.getByTestId("loop-confirm");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId("spend-dialog-cost")).toContainText(`Costs 1 credit. Your balance goes from ${before} to ${before - 1}.`);
  await dialog.getByTestId("confirm-dialog-keep").click();
  await expect(dialog).toBeHidden();
  expect(await balance(page)).toBe(before);
  await page.getByTestId("loop-execute").click();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  expect(await balance(page)).toBe(before);
  await expect(page.getByTestId("loop-result")).toHaveCount(0);

  // Confirming spends exactly the price shown.
  await page.getByTestId("loop-execute").click();
  await dialog.getByTestId("confirm-dialog-confirm").click();
  const result = page.getByTestId("loop-result");
  await expect(result).toContainText("Launched an improved version of “fading-ad”");
  await expect(result.getByRole("link")).toHaveText("Static ads");
  await expect(result).toContainText("1 credit");
  expect(await balance(page)).toBe(before - 1);
  await page.setViewportSize({ width: 1400, height: 900 });
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `${SHOTS}/desktop.png`, fullPage: true });
});

test.describe("on a 390 px phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the page fits and the recommendation can be carried out", async ({ page }) => {
    await signUpInBrowser(page, "e2e-perf-phone");
    await brandWithFigures(page);
    await page.goto("/performance");
    await expect(page.locator('[data-creative="fading-ad"]').getByTestId("decay-flag")).toBeVisible();
    await expect(page.getByTestId("loop-execute")).toBeVisible();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/phone.png`, fullPage: true });
  });
});

// Performance figures entered in the SPA, for advertisers without an integration, not only through the
// API: one creative's day in a
// form, and a CSV of many days in the shape Meta exports, each row's outcome listed with what to fix.
// At 390 px and 1400 px, with no sideways scroll.
import { expect, test } from "@playwright/test";
import { expectNoSidewaysScroll, signUpInBrowser } from "./support/browser.ts";

const META_EXPORT = [
  "Reporting starts,Ad name,Impressions,Clicks (all),Results,Amount spent (USD),Purchases conversion value",
  '2026-03-01,Spring sale,"12,000",240,12,$80.00,$300.00',
  "2026-03-02,Spring sale,11000,200,10,75.5,280",
  "2026-03-03,Spring sale,-5,10,1,1,1",
  "03/04/2026,Spring sale,9000,150,8,60,200",
].join("\n");

for (const width of [390, 1400]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test("a day in the form and many days from a platform's CSV, each row's outcome shown", async ({ page }) => {
      await signUpInBrowser(page, `e2e-figures-${width}`);
      expect((await page.request.post("/api/user/brands", { data: { name: "Brewly" } })).status()).toBe(200);
      await page.goto("/performance");
      await expect(page.getByTestId("performance-empty")).toContainText("Add them above");

      // One day: a bad figure is explained before anything is sent, then the day is saved and shown.
      const day = page.getByTestId("figures-day-form");
      await day.getByTestId("figures-creativeId").fill("summer-reel");
      await day.getByTestId("figures-date").fill("2026-03-01");
      await day.getByTestId("figures-impressions").fill("5000");
      await day.getByTestId("figures-clicks").fill("2.5");
      await day.getByTestId("figures-day-save").click();
      await expect(day.getByTestId("figures-day-error")).toHaveText("clicks must be a whole number of 0 or more");
      await day.getByTestId("figures-clicks").fill("100");
      await day.getByTestId("figures-spend").fill("40");
      await day.getByTestId("figures-revenue").fill("120");
      await day.getByTestId("figures-day-save").click();
      await expect(day.getByTestId("figures-day-saved")).toHaveText("Saved summer-reel on 2026-03-01.");
      await expect(page.locator('[data-creative="summer-reel"]')).toBeVisible();

      // A CSV as Meta exports it: two rows saved, two refused with what to fix.
      await page
        .getByTestId("figures-csv-file")
        .setInputFiles({ name: "meta-export.csv", mimeType: "text/csv", buffer: Buffer.from(META_EXPORT) });
      await expect(page.getByTestId("figures-csv-summary")).toContainText("2 of 4 rows saved; 2 refused");
      const rows = page.getByTestId("figures-csv-row");
      await expect(rows).toHaveCount(4);
      await expect(rows.nth(0)).toHaveText("Row 2 (Spring sale, 2026-03-01): saved");
      await expect(rows.nth(2)).toHaveText("Row 4 (Spring sale, 2026-03-03): impressions must be a whole number of 0 or more");
      await expect(rows.nth(3)).toHaveText("Row 5 (Spring sale, 03/04/2026): Give the date as YYYY-MM-DD");
      const card = page.locator('[data-creative="Spring sale"]');
      await expect(card).toBeVisible();
      const report = await (await page.request.get("/api/workflow/performance?creativeId=Spring%20sale")).json();
      expect(report.data.creatives[0].totals).toMatchObject({
        impressions: 23000,
        clicks: 440,
        conversions: 22,
        spend: 155.5,
        revenue: 580,
      });

      // A file without the needed columns says which are missing.
      await page
        .getByTestId("figures-csv-file")
        .setInputFiles({ name: "other.csv", mimeType: "text/csv", buffer: Buffer.from("Name,Value\na,1\n") });
      await expect(page.getByTestId("figures-csv-error")).toContainText('no column for date (e.g. "day"), creativeId');
      await expectNoSidewaysScroll(page);
    });
  });
}

for (const width of [390, 1400]) {
  test.describe(`a project's figures at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test("a project's own day is saved from its brand's page, impossible figures are explained, and a day can be removed", async ({
      page,
    }) => {
      await signUpInBrowser(page, `e2e-own-figures-${width}`);
      const brand = await (await page.request.post("/api/user/brands", { data: { name: "Brewly" } })).json();
      const launch = await page.request.post("/api/workflow", {
        data: { type: "staticad", concept: "Cold brew for night shifts", brand: brand.data.id },
      });
      expect(launch.status()).toBe(200);
      const jobId = (await launch.json()).data.jobId as string;
      await page.goto("/performance");

      const day = page.getByTestId("figures-day-form");
      await day.getByTestId("figures-creativeId").fill(jobId);
      await day.getByTestId("figures-date").fill("2026-03-01");
      await day.getByTestId("figures-impressions").fill("1000");
      await day.getByTestId("figures-clicks").fill("5000");
      await day.getByTestId("figures-day-save").click();
      await expect(day.getByTestId("figures-day-error")).toHaveText(
        "clicks (5000) cannot be more than impressions (1000): every click is on an ad that was shown",
      );
      await day.getByTestId("figures-clicks").fill("50");
      await day.getByTestId("figures-day-save").click();
      await expect(day.getByTestId("figures-day-saved")).toHaveText(`Saved ${jobId} on 2026-03-01.`);
      await day.getByTestId("figures-date").fill("2026-03-02");
      await day.getByTestId("figures-day-save").click();
      await expect(day.getByTestId("figures-day-saved")).toHaveText(`Saved ${jobId} on 2026-03-02.`);

      const card = page.locator(`[data-creative="${jobId}"]`);
      await expect(card.locator("dd").first()).toHaveText("2,000");
      await card.getByTestId("entered-days").locator("summary").click();
      await card.locator('[data-testid="entered-day"][data-date="2026-03-02"]').getByTestId("entered-day-remove").click();
      await page.getByTestId("entered-day-confirm").getByTestId("confirm-ok").click();
      await expect(card.locator("dd").first()).toHaveText("1,000");
      await expect(card.getByTestId("entered-day")).toHaveCount(1);
      await expectNoSidewaysScroll(page);
    });
  });
}

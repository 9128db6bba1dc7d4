// Every page a round of page changes touched, at 390 px and at 1400 px, with no sideways scroll (a phone
// and a desktop see every page whole): the pages the other specs drive at one width only (Billing, Settings with the API key and the
// webhooks, the studio's priced Launch) and the rest, each opened as a new user finds it.
import { expect, test } from "@playwright/test";
import { expectNoSidewaysScroll, signUpInBrowser } from "./support/browser.ts";

const PAGES: [path: string, ready: string][] = [
  ["/dashboard", "dashboard-change-plan"],
  ["/studio?type=cinematic", "launch"],
  ["/projects", "projects"],
  ["/performance", "performance-page"],
  ["/assistant", "assistant-page"],
  ["/prompt-builder", "pb-subject"],
  ["/brand", "brand-profile-form"],
  ["/billing", "api-key-ineligible"],
  ["/settings", "api-key-panel"],
];

for (const width of [390, 1400]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test("each page fits without scrolling sideways", async ({ page }) => {
      test.setTimeout(120_000);
      await signUpInBrowser(page, `e2e-fit-${width}`);
      for (const [path, ready] of PAGES) {
        await page.goto(path);
        await expect(page.getByTestId(ready).first(), path).toBeVisible();
        await expectNoSidewaysScroll(page);
      }
      // Settings holds the API key beside the webhooks; the studio's Launch names its price.
      await page.goto("/settings");
      await expect(page.getByTestId("webhook-panel")).toBeVisible();
      await page.goto("/studio?type=cinematic");
      await expect(page.getByTestId("launch")).toHaveText(/^Launch Director for \d+ credits?$/);
      await expectNoSidewaysScroll(page);
    });
  });
}

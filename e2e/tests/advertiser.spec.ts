// An ad is for the brand it names: the studio says when the page's site is not the chosen brand's website,
// and "No brand profile" launches with brand "none" (the server then uses nothing of the default brand).
import { expect, test } from "@playwright/test";
import { signUpInBrowser } from "./support/browser.ts";

test("the studio warns of another site's page and launches 'No brand profile' as no brand", async ({ page }) => {
  await signUpInBrowser(page, "e2e-advertiser");
  const saved = await page.request.post("/api/user/brand", {
    data: { brandName: "Barkwell Kibble", websiteUrl: "https://barkwell.example/" },
  });
  expect(saved.status()).toBe(200);

  await page.goto("/studio");
  await page.getByTestId("workflow-type-factory").click();
  const form = page.getByTestId("workflow-form");
  await form.getByTestId("field-url").fill("https://harbor-bank.example/current-account");
  await expect(form.getByTestId("brand-site-mismatch")).toContainText("harbor-bank.example");
  await expect(form.getByTestId("brand-site-mismatch")).toContainText("barkwell.example");

  // The brand's own site: nothing to say.
  await form.getByTestId("field-url").fill("https://shop.barkwell.example/bag");
  await expect(form.getByTestId("brand-site-mismatch")).toHaveCount(0);

  await form.getByTestId("field-url").fill("https://harbor-bank.example/current-account");
  await form.getByTestId("field-brand").selectOption({ label: "No brand profile" });
  await expect(form.getByTestId("brand-site-mismatch")).toHaveCount(0);
  const launched = page.waitForRequest((r) => r.method() === "POST" && /workflow\.launch/.test(r.url()));
  await form.getByTestId("launch").click();
  expect((await launched).postData()).toContain('"brand":"none"');
  await expect(page).toHaveURL(/\/studio\/jobs\//);
});

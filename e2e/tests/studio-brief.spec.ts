// The brief by part in the studio: hook, benefits, proof, offer, call to action and direction notes, each
// with an example, usable on a 390 px phone; the review and the result say how each sentence was read,
// and a direction note is never on screen.
import { expect, test } from "@playwright/test";
import { expectNoSidewaysScroll, signUpInBrowser } from "./support/browser.ts";

test("a brief by part is read by field, shown to the reviewer, and its direction never reaches the ad", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signUpInBrowser(page, "e2e-brief");
  await page.goto("/studio");
  await page.getByTestId("workflow-type-cinematic").click();
  const form = page.getByTestId("workflow-form");
  await form.getByTestId("field-concept").fill("Cold brew that tastes like summer. Casual, honest, a bit funny.");
  const brief = form.getByTestId("brief-fields");
  await brief.locator("summary").click();
  for (const field of ["hook", "benefits", "proof", "offer", "cta", "direction"]) {
    await expect(brief.getByTestId(`field-brief-${field}`)).toHaveAttribute("placeholder", /^e\.g\. /);
  }
  await brief.getByTestId("field-brief-hook").fill("Too hot for hot coffee?");
  await brief.getByTestId("field-brief-cta").fill("Grab a can");
  await brief.getByTestId("field-brief-direction").fill("Slow push-in on the can.");
  await expectNoSidewaysScroll(page);
  await form.getByTestId("field-hitl").check();
  await form.getByTestId("launch").click();

  await expect(page.getByTestId("review-panel")).toBeVisible({ timeout: 30_000 });
  const reading = page.getByTestId("brief-reading");
  await expect(reading).toContainText("How we read your brief");
  await expect(reading.getByTestId("brief-sentence").filter({ hasText: "Slow push-in on the can." })).toContainText("Direction");
  await expect(reading.getByTestId("brief-sentence").filter({ hasText: "Casual, honest, a bit funny." })).toContainText("Tone");
  // The scenes' editable text: the hook opens the ad, the direction note is in no scene.
  const said = await page
    .getByTestId("review-panel")
    .locator('[data-testid^="scene-"]')
    .evaluateAll((fields) => fields.map((f) => (f as HTMLInputElement).value ?? f.textContent ?? "").join(" | "));
  expect(said).toContain("Too hot for hot coffee?");
  expect(said).toContain("Grab a can");
  expect(said).not.toMatch(/push-in|Casual, honest/i);
  await expectNoSidewaysScroll(page);
});

// The empty assistant page at 390 px: its suggestion chips wrap inside the page, and Send stays on screen.
import { expect, test } from "@playwright/test";
import { expectNoSidewaysScroll, signUpInBrowser } from "./support/browser.ts";

for (const width of [390, 1400]) {
  test(`the empty assistant page fits ${width} px, suggestions and Send included`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await signUpInBrowser(page, `e2e-phone-assistant-${width}`);
    await page.goto("/assistant");
    const chips = page.locator(".assistant-suggestions .btn");
    await expect(chips.first()).toBeVisible();
    await expectNoSidewaysScroll(page);
    for (const chip of await chips.all()) {
      const box = (await chip.boundingBox())!;
      expect(box.x + box.width, (await chip.textContent()) ?? "").toBeLessThanOrEqual(width);
    }
    const send = page.getByRole("button", { name: /^Send$/ });
    await expect(send).toBeVisible();
    const box = (await send.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(width);
  });
}

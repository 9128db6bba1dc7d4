// A web page added to the knowledge base is accepted at once and read in the background (SPEC: 200,
// `extracting`); one that cannot be read shows why on its row, with a button to try it again. The e2e
// network is closed, so a `.invalid` name (RFC 2606: never resolves) stands for a site that is down.
import { expect, test } from "@playwright/test";
import { signUpInBrowser } from "./support/browser.ts";

test("knowledge base: a page that cannot be read shows why and can be tried again", async ({ page }) => {
  await signUpInBrowser(page, "e2e-knowledge-retry");
  await page.goto("/brand");
  const section = page.getByTestId("knowledge-base");
  await expect(section.getByTestId("knowledge-empty")).toBeVisible();

  await section.getByTestId("knowledge-url").fill("https://shop.invalid/about");
  await section.getByTestId("knowledge-url-add").click();
  // Accepted: the form empties and the row appears (reading, then failed), no error under the field.
  await expect(section.getByTestId("knowledge-url")).toHaveValue("");
  await expect(section.getByTestId("knowledge-url-error")).toHaveCount(0);
  const item = section.getByTestId("knowledge-item");
  await expect(item).toHaveCount(1);
  await expect(item.getByTestId("knowledge-status")).toHaveText("Could not be read", { timeout: 20_000 });
  await expect(item.getByTestId("knowledge-error")).toContainText(
    "Could not read https://shop.invalid/about: shop.invalid could not be resolved",
  );
  await expect(section.getByTestId("knowledge-count")).toContainText("1 of 10 pages");

  // Try again: the same row is read anew (and, the site still being down, fails again with the reason).
  const retried = page.waitForResponse((response) => response.url().includes("brand.retryKnowledge") && response.status() === 200);
  await item.getByTestId("knowledge-retry").click();
  await retried;
  await expect(item).toHaveCount(1);
  await expect(item.getByTestId("knowledge-status")).toHaveText("Could not be read", { timeout: 20_000 });
  await expect(item.getByTestId("knowledge-retry")).toBeEnabled();

  await item.getByTestId("knowledge-delete").click();
  // Nothing is deleted until the confirmation says so.
  await expect(page.getByTestId("knowledge-delete-confirm")).toBeVisible();
  await expect(item).toHaveCount(1);
  await page.getByTestId("knowledge-delete-confirm").getByTestId("confirm-ok").click();
  await expect(section.getByTestId("knowledge-empty")).toBeVisible();
});

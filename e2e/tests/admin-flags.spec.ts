// The admin console's Account flags tab (issue 10, money) on a 390 px phone: reached from the console's
// tabs, it states plainly that nothing is open, switches between open, resolved and all, and fits the width.
import { expect, test } from "@playwright/test";
import { expectNoSidewaysScroll, signInAsAdmin } from "./support/browser.ts";

test("an administrator opens Account flags on a phone: no open flags, filters, no sideways scrolling", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsAdmin(page);
  await page.goto("/admin/overview");
  await page.getByTestId("admin-nav").getByRole("link", { name: "Account flags" }).click();
  await expect(page).toHaveURL(/\/admin\/flags$/);
  await expect(page.getByRole("heading", { name: "Account flags" })).toBeVisible();
  await expect(page.getByTestId("flags-empty")).toHaveText(/No open flags/);
  await expect(page.getByTestId("flags-total")).toHaveText(/0 flags · 0 open in all/);
  await page.getByTestId("flags-filter-all").click();
  await expect(page.getByTestId("flags-filter-all")).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("flags-empty")).toHaveText("No flags here.");
  await page.waitForLoadState("networkidle");
  await expectNoSidewaysScroll(page);
});

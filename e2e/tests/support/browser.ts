// What many specs do the same way: sign up or sign in through the SPA's own forms, and check that a page
// fits its viewport without scrolling sideways (naming what sticks out when it does not).
import { expect, type Page } from "@playwright/test";

export const PASSWORD = "e2e-password-123";
/** The admin the e2e server is started with (playwright.config.ts). */
export const ADMIN = { email: "e2e-admin@example.com", password: "e2e-admin-password" };

/** Signs a new account up in the browser and lands on the dashboard; answers its e-mail address. */
export async function signUpInBrowser(page: Page, prefix: string): Promise<string> {
  const email = `${prefix}-${Date.now()}@example.com`;
  await page.goto("/signup");
  await page.getByTestId("email").fill(email);
  await page.getByTestId("password").fill(PASSWORD);
  await page.getByTestId("submit").click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return email;
}

export async function signInAsAdmin(page: Page): Promise<void> {
  await page.goto("/login");
  await page.getByTestId("email").fill(ADMIN.email);
  await page.getByTestId("password").fill(ADMIN.password);
  await page.getByTestId("submit").click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** The page is no wider than the viewport; otherwise the message names the elements that stick out. */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    view: window.innerWidth,
    wide: Array.from(document.querySelectorAll("body *"))
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(0, 8)
      .map((el) => `${el.tagName}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`),
  }));
  expect(
    widths.scroll,
    `${page.url()} is ${widths.scroll}px wide in a ${widths.view}px viewport: ${widths.wide.join(", ")}`,
  ).toBeLessThanOrEqual(widths.view);
}

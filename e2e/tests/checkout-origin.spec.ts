// Checkout from the SPA opened on another host name than PUBLIC_URL's (the default PUBLIC_URL is
// http://localhost:PORT; here the page is on http://127.0.0.1:PORT): the sandbox checkout opens on the
// page's own origin, so the visitor stays signed in; and a visitor whose session ended is sent to log in
// and brought back to the checkout they were on, with the order still there to pay.
import { expect, test } from "@playwright/test";
import { PASSWORD } from "./support/browser.ts";

test("the sandbox checkout stays on the page's origin, and a login returns to it", async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin.replace("localhost", "127.0.0.1");
  const email = `e2e-checkout-origin-${Date.now()}@example.com`;
  await page.goto(`${origin}/signup`);
  await page.getByTestId("email").fill(email);
  await page.getByTestId("password").fill(PASSWORD);
  await page.getByTestId("submit").click();
  await expect(page).toHaveURL(`${origin}/dashboard`);

  await page.goto(`${origin}/billing`);
  await page.getByTestId("pack-pack_10").getByRole("button", { name: "Buy 10 credits" }).click();
  await expect(page).toHaveURL(new RegExp(`^${origin.replace(/[.]/g, "\\.")}/billing/sandbox/[\\w-]+$`));
  await expect(page.getByTestId("sandbox-banner")).toContainText("SANDBOX CHECKOUT");
  const checkout = page.url();

  // The session ends (expired, signed out elsewhere): the checkout sends to login, and login sends back.
  await page.context().clearCookies();
  await page.reload();
  await expect(page).toHaveURL(`${origin}/login?next=${encodeURIComponent(new URL(checkout).pathname)}`);
  await page.getByTestId("email").fill(email);
  await page.getByTestId("password").fill(PASSWORD);
  await page.getByTestId("submit").click();
  await expect(page).toHaveURL(checkout);
  await page.getByRole("button", { name: /Confirm test payment/ }).click();
  await expect(page.getByTestId("sandbox-paid")).toContainText("Your balance is now 20 credits");

  // A `next` that leads off the site is not followed: login goes to the dashboard instead.
  await page.context().clearCookies();
  await page.goto(`${origin}/login?next=${encodeURIComponent("//evil.example/phish")}`);
  await page.getByTestId("email").fill(email);
  await page.getByTestId("password").fill(PASSWORD);
  await page.getByTestId("submit").click();
  await expect(page).toHaveURL(`${origin}/dashboard`);
});

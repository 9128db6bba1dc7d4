// The admin users table opens an account's page, where an administrator grants and removes credits,
// changes plan, role and trial end, suspends and reactivates, and resets the password; destructive
// actions ask in an in-app dialog, and errors are explained in place, where the administrator is looking.
import { mkdirSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { PASSWORD, signInAsAdmin } from "./support/browser.ts";

const SHOTS = "test-results/admin";
mkdirSync(SHOTS, { recursive: true });

test("an administrator manages one account from its page", async ({ page, playwright, baseURL }) => {
  // The managed person, in their own browser session (a separate cookie jar).
  const person = await playwright.request.newContext({ baseURL });
  const email = `e2e-managed-${Date.now()}@example.com`;
  expect((await person.post("/api/auth/signup", { data: { email, password: PASSWORD } })).status()).toBe(200);

  await signInAsAdmin(page);
  await page.goto(`/admin?q=${encodeURIComponent(email)}`);
  const row = page.getByTestId("admin-user-row").filter({ hasText: email });
  // The whole row opens the account, not only the e-mail link.
  await row.getByRole("cell").nth(2).click();
  await expect(page).toHaveURL(/\/admin\/users\/[\w-]+$/);
  await expect(page.getByTestId("admin-user-email")).toHaveText(email);
  await expect(page.getByTestId("admin-user-balance")).toHaveText("10");

  // Grant, with a reason.
  const credits = page.getByTestId("admin-credits");
  await credits.getByTestId("credits-amount").fill("25");
  await credits.getByTestId("credits-reason").fill("Goodwill for a failed render");
  await credits.getByTestId("credits-submit").click();
  await expect(credits.getByTestId("credits-done")).toHaveText("Granted 25 credits. Balance: 35.");
  await expect(page.getByTestId("admin-user-balance")).toHaveText("35");

  // A missing amount is explained next to the field; nothing is sent.
  await credits.getByTestId("credits-submit").click();
  await expect(credits.getByTestId("field-error-amount")).toContainText("Enter a whole number of credits");

  // Removing asks first; more than the balance is refused, and the dialog says why.
  await credits.getByTestId("credits-remove").click();
  await credits.getByTestId("credits-amount").fill("500");
  await credits.getByTestId("credits-submit").click();
  // Only the open (modal) dialog is in the accessibility tree.
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Remove 500 credits?");
  await dialog.getByTestId("confirm-ok").click();
  await expect(dialog.getByTestId("confirm-error")).toContainText("below zero");
  await page.screenshot({ path: `${SHOTS}/remove-refused.png` });
  await dialog.getByTestId("confirm-cancel").click();
  await expect(dialog).toBeHidden();
  await credits.getByTestId("credits-amount").fill("5");
  await credits.getByTestId("credits-submit").click();
  await dialog.getByTestId("confirm-ok").click();
  await expect(credits.getByTestId("credits-done")).toHaveText("Removed 5 credits. Balance: 30.");
  expect((await (await person.get("/api/user/credits")).json()).data.balance).toBe(30);

  // Plan and trial end.
  const fields = page.getByTestId("admin-account-fields");
  await fields.getByTestId("admin-plan").selectOption("subscription_pro");
  await fields.getByTestId("admin-trial-end").fill("2031-05-20");
  await fields.getByTestId("fields-submit").click();
  await expect(fields.getByTestId("fields-done")).toBeVisible();
  await expect(page.getByTestId("admin-user-plan")).toHaveText("Pro");
  const profile = (await (await person.get("/api/user/profile")).json()).data;
  expect(profile.current_plan_id).toBe("subscription_pro");
  expect(profile.trial_ends_at.slice(0, 4)).toBe("2031");

  // Role: asks first.
  await fields.getByTestId("admin-role").selectOption("admin");
  await fields.getByTestId("fields-submit").click();
  await expect(dialog).toContainText("Make this account an administrator?");
  await dialog.getByTestId("confirm-cancel").click();
  await fields.getByTestId("admin-role").selectOption("user");

  // Suspend asks first and signs the person out; reactivate lets them back.
  await page.getByTestId("suspend").click();
  await expect(dialog).toContainText("Suspend this account?");
  await page.screenshot({ path: `${SHOTS}/suspend-dialog.png` });
  await dialog.getByTestId("confirm-ok").click();
  await expect(page.getByTestId("admin-user-status")).toHaveText("Suspended");
  expect((await person.get("/api/user/profile")).status()).toBe(401);
  const suspendedLogin = await person.post("/api/auth/login", { data: { email, password: PASSWORD } });
  expect(suspendedLogin.status()).toBe(403);
  await page.getByTestId("reactivate").click();
  await expect(page.getByTestId("admin-user-status")).toHaveText("Active");
  expect((await person.post("/api/auth/login", { data: { email, password: PASSWORD } })).status()).toBe(200);

  // Reset the password: too short is explained in place; then it asks, and the new one works.
  const reset = page.getByTestId("admin-reset-password");
  await reset.getByTestId("reset-password").fill("short");
  await reset.getByTestId("reset-submit").click();
  await expect(reset.getByTestId("field-error-reset-password")).toContainText("at least 8 characters");
  await reset.getByTestId("reset-password").fill("a-brand-new-password");
  await reset.getByTestId("reset-submit").click();
  await dialog.getByTestId("confirm-ok").click();
  await expect(reset.getByTestId("reset-done")).toBeVisible();
  expect((await person.post("/api/auth/login", { data: { email, password: PASSWORD } })).status()).toBe(401);
  expect((await person.post("/api/auth/login", { data: { email, password: "a-brand-new-password" } })).status()).toBe(200);
  await page.screenshot({ path: `${SHOTS}/admin-user.png`, fullPage: true });
  await person.dispose();
});

test("an unknown account id says so, with the way back", async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto("/admin/users/00000000-0000-0000-0000-000000000000");
  await expect(page.getByRole("heading", { name: "No such account" })).toBeVisible();
  await page.getByRole("link", { name: "All users" }).click();
  await expect(page).toHaveURL(/\/admin$/);
});

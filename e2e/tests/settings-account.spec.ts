// Settings: changing the sign-in e-mail with the password, and the outbound webhook panel (URL, the
// signing secret shown once, rotation, and when a test delivery is offered).
import { mkdirSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { PASSWORD, signUpInBrowser } from "./support/browser.ts";

const SHOTS = "test-results/settings";
mkdirSync(SHOTS, { recursive: true });

test("change the e-mail address with the password; wrong password and taken address are explained", async ({ page, request }) => {
  const email = await signUpInBrowser(page, "e2e-email");
  const taken = `e2e-taken-${Date.now()}@example.com`;
  expect((await request.post("/api/auth/signup", { data: { email: taken, password: PASSWORD } })).status()).toBe(200);

  await page.goto("/settings");
  const form = page.getByTestId("change-email-form");
  const next = `e2e-new-${Date.now()}@example.com`;

  await form.getByTestId("new-email").fill("not-an-address");
  await form.getByTestId("email-password").fill(PASSWORD);
  await form.getByTestId("change-email-submit").click();
  await expect(form.getByTestId("field-error-new-email")).toBeVisible();

  await form.getByTestId("new-email").fill(next);
  await form.getByTestId("email-password").fill("not-my-password");
  await form.getByTestId("change-email-submit").click();
  await expect(form.getByTestId("email-form-error")).toHaveText("The password is not correct. Enter the password you sign in with.");

  await form.getByTestId("new-email").fill(taken);
  await form.getByTestId("email-password").fill(PASSWORD);
  await form.getByTestId("change-email-submit").click();
  await expect(form.getByTestId("field-error-new-email")).toContainText("Another account already uses that e-mail address");

  await form.getByTestId("new-email").fill(next);
  await form.getByTestId("email-password").fill(PASSWORD);
  await form.getByTestId("change-email-submit").click();
  await expect(form.getByTestId("email-changed")).toHaveText(`Done. You now sign in with ${next}.`);
  await expect(page.getByTestId("user-email")).toHaveText(next);

  // The new address signs in; the old one no longer does.
  expect((await request.post("/api/auth/login", { data: { email: next, password: PASSWORD } })).status()).toBe(200);
  expect((await request.post("/api/auth/login", { data: { email, password: PASSWORD } })).status()).toBe(401);
});

test("the webhook panel: save a URL, see the secret once, rotate it; the test delivery is for the saved URL", async ({ page }) => {
  await signUpInBrowser(page, "e2e-hook");
  await page.goto("/settings");
  const panel = page.getByTestId("webhook-panel");
  await expect(panel.getByTestId("webhook-deliveries-empty")).toBeVisible();
  // Nothing to test before a URL is saved.
  await expect(panel.getByTestId("webhook-test")).toBeDisabled();

  // A private address is refused with the server's reason, in place.
  await panel.getByTestId("webhook-url").fill("http://127.0.0.1:9/hook");
  await panel.getByTestId("webhook-save").click();
  await expect(panel.getByTestId("field-error-webhook-url")).toBeVisible();

  // An address literal: saving checks it without DNS, and nothing is sent to it in this test.
  await panel.getByTestId("webhook-url").fill("https://93.184.216.34/hooks/adgen");
  await panel.getByTestId("webhook-save").click();
  await expect(panel.getByTestId("webhook-saved")).toBeVisible();
  const secret = panel.getByTestId("webhook-secret-value");
  await expect(secret).toHaveText(/^whsec_/);
  const first = await secret.textContent();
  await page.screenshot({ path: `${SHOTS}/webhook-secret.png`, fullPage: true });

  // Shown once: after a reload it is masked.
  await page.reload();
  await expect(panel.getByTestId("webhook-secret-masked")).toHaveText(/^whsec_•+/);
  await expect(panel.getByTestId("webhook-secret-value")).toHaveCount(0);

  // Rotating asks first, then shows the new secret once.
  await panel.getByTestId("webhook-rotate").click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("Issue a new signing secret?");
  await dialog.getByTestId("confirm-ok").click();
  await expect(dialog).toBeHidden();
  await expect(secret).toHaveText(/^whsec_/);
  expect(await secret.textContent()).not.toBe(first);

  // The test delivery is offered for the saved URL only (an unsaved edit must be saved first). Sending
  // it would reach outside this machine, so its outcome is covered by server/test/webhook-panel.test.ts
  // with a faked receiver.
  await expect(panel.getByTestId("webhook-test")).toBeEnabled();
  await panel.getByTestId("webhook-url").fill("https://93.184.216.34/hooks/other");
  await expect(panel.getByTestId("webhook-test")).toBeDisabled();
  await expect(panel.getByTestId("webhook-test")).toHaveAttribute("title", "Save the URL first");
  await page.screenshot({ path: `${SHOTS}/webhook-panel.png`, fullPage: true });
});

test("the publishing panel explains a wrong Page id in place, and why nothing can be connected here", async ({ page }) => {
  await signUpInBrowser(page, "e2e-social");
  await page.goto("/settings");
  const panel = page.getByTestId("social-accounts");
  await expect(panel.getByTestId("social-empty")).toBeVisible();
  await panel.getByTestId("social-page-id").fill("my page");
  await panel.getByTestId("social-token").fill("EAAGsomething-long-enough-123");
  await panel.getByTestId("social-connect").click();
  await expect(panel.getByTestId("field-error-page-id")).toContainText("The Facebook Page id is a number");
  // This e2e server has no Meta app configured: the server says so, in words.
  await panel.getByTestId("social-page-id").fill("104829384756123");
  await panel.getByTestId("social-connect").click();
  await expect(panel.getByTestId("social-form-error")).toContainText("Publishing is not set up on this instance");
  await page.screenshot({ path: `${SHOTS}/publishing-panel.png`, fullPage: true });
});

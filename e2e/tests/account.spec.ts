import { expect, request, test } from "@playwright/test";

const password = "e2e-password-123";

test("sign up, see the dashboard, log out, log in again", async ({ page }) => {
  const email = `e2e-${Date.now()}@example.com`;

  await page.goto("/signup");
  const signup = page.getByTestId("signup-form");
  await signup.getByTestId("email").fill(email);
  await signup.getByTestId("password").fill(password);
  await signup.getByTestId("submit").click();

  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("dashboard")).toBeVisible();
  await expect(page.getByTestId("profile-email")).toHaveText(email);
  await expect(page.getByTestId("credit-balance").first()).toContainText("10");
  await expect(page.getByTestId("profile-plan")).toContainText(/trial/i);
  await expect(page.getByTestId("trial-countdown")).toContainText(/\d+\s*d/);

  // The session cookie is HttpOnly: scripts on the page cannot read it.
  expect(await page.evaluate(() => document.cookie)).not.toContain("session=");

  await page.getByTestId("logout").click();
  await expect(page).toHaveURL(/\/login$/);
  // Signed out for real: the protected page sends us back to login.
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login$/);

  const login = page.getByTestId("login-form");
  await login.getByTestId("email").fill(email);
  await login.getByTestId("password").fill(password);
  await login.getByTestId("submit").click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("profile-email")).toHaveText(email);
});

test("the server's validation messages appear next to the fields", async ({ page, request }) => {
  const email = `e2e-dup-${Date.now()}@example.com`;
  // Another client registers the address first (its own cookie jar, not the browser's).
  const response = await request.post("/api/auth/signup", { data: { email, password } });
  expect(response.status()).toBe(200);

  await page.goto("/signup");
  const form = page.getByTestId("signup-form");
  await form.getByTestId("email").fill(email.toUpperCase());
  await form.getByTestId("password").fill(password);
  await form.getByTestId("submit").click();
  await expect(page.getByText("Email already registered")).toBeVisible();

  await page.goto("/login");
  const login = page.getByTestId("login-form");
  await login.getByTestId("email").fill(email);
  await login.getByTestId("password").fill("wrong-password");
  await login.getByTestId("submit").click();
  await expect(page.getByTestId("form-error")).toHaveText(/Invalid email or password/);
  await expect(page).toHaveURL(/\/login$/);
});

test("change password keeps me signed in and the new password works", async ({ page }) => {
  const email = `e2e-pw-${Date.now()}@example.com`;
  await page.goto("/signup");
  await page.getByTestId("email").fill(email);
  await page.getByTestId("password").fill(password);
  await page.getByTestId("submit").click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto("/settings");
  const form = page.getByTestId("change-password-form");
  await form.getByTestId("current-password").fill("not-my-password");
  await form.getByTestId("new-password").fill("another-password-1");
  await form.getByTestId("submit").click();
  await expect(page.getByText("Your current password is not correct")).toBeVisible();

  // A second device, signed in before the change: the change signs it out, and the page says so.
  const elsewhere = await request.newContext({ baseURL: new URL(page.url()).origin });
  expect((await elsewhere.post("/api/auth/login", { data: { email, password } })).status()).toBe(200);
  expect((await elsewhere.get("/api/user/profile")).status()).toBe(200);

  await form.getByTestId("current-password").fill(password);
  await form.getByTestId("new-password").fill("another-password-1");
  await form.getByTestId("submit").click();
  await expect(page.getByTestId("password-changed")).toHaveText("Password changed. 1 other session was signed out.");
  expect((await elsewhere.get("/api/user/profile")).status()).toBe(401);
  await elsewhere.dispose();

  const login = await page.request.post("/api/auth/login", { data: { email, password: "another-password-1" } });
  expect(login.status()).toBe(200);
});

// The admin console, as an administrator uses it: the overview's charts and funnel, leads (added, de-duplicated, refused when
// invalid), agents run now, settings that change what a new account gets, system and health, the activity
// log, and a 390 px phone showing the console without sideways scrolling.
import { mkdirSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { PASSWORD, expectNoSidewaysScroll, signInAsAdmin } from "./support/browser.ts";

const SHOTS = "test-results/admin-console";
mkdirSync(SHOTS, { recursive: true });

test("an administrator reads the overview, manages leads, runs an agent and changes the signup credits", async ({
  page,
  playwright,
  baseURL,
}) => {
  // A new account, so the period has a signup to count.
  const visitor = await playwright.request.newContext({ baseURL });
  expect(
    (await visitor.post("/api/auth/signup", { data: { email: `e2e-console-${Date.now()}@example.com`, password: PASSWORD } })).status(),
  ).toBe(200);

  await signInAsAdmin(page);
  await page.goto("/admin/overview");
  await expect(page.getByTestId("admin-nav")).toBeVisible();
  await expect(page.getByTestId("stats-users-total")).not.toHaveText("0");
  await expect(page.getByTestId("stats-daily-chart")).toBeVisible();
  await expect(page.getByTestId("revenue-chart")).toBeVisible();
  await expect(page.getByTestId("funnel-signup")).not.toHaveText("0");
  await page.getByTestId("period-7").click();
  await expect(page.getByTestId("period-7")).toHaveAttribute("aria-pressed", "true");
  await page.screenshot({ path: `${SHOTS}/overview.png`, fullPage: true });

  // Leads: an invalid address is explained in place; an address already listed adds nothing.
  await page.getByTestId("admin-nav").getByRole("link", { name: "Leads" }).click();
  await expect(page).toHaveURL(/\/admin\/leads$/);
  const form = page.getByTestId("lead-form");
  await form.getByLabel("E-mail").fill("not an address");
  await page.getByTestId("lead-submit").click();
  await expect(page.getByTestId("lead-email-error")).toHaveText("email must be an e-mail address");
  await form.getByLabel("E-mail").fill("Pat.Prospect@Example.com");
  await form.getByLabel("Name (optional)").fill("Pat Prospect");
  await page.getByTestId("lead-submit").click();
  await expect(page.getByTestId("lead-done")).toHaveText("Added pat.prospect@example.com.");
  await expect(page.getByTestId("lead-row").filter({ hasText: "pat.prospect@example.com" })).toHaveCount(1);
  await form.getByLabel("E-mail").fill("pat.prospect@example.com");
  await page.getByTestId("lead-submit").click();
  await expect(page.getByTestId("lead-done")).toContainText("already a lead");
  await expect(page.getByTestId("lead-row").filter({ hasText: "pat.prospect@example.com" })).toHaveCount(1);

  // Agents: "Run now" runs it and its last run appears.
  await page.goto("/admin/agents");
  const agent = page.locator('[data-agent="performance-decay"]');
  await agent.getByTestId("agent-run").click();
  await expect(agent.getByTestId("agent-status")).toHaveText("OK");
  await expect(agent.getByTestId("agent-last-run")).not.toHaveText("Last run: —");
  await expect(agent.getByTestId("agent-result")).toContainText("creativesScanned 0");

  // Settings: a bad value is explained; a good one changes what the next new account gets.
  await page.goto("/admin/settings");
  await page.getByTestId("settings-signup-credits").fill("-3");
  await page.getByTestId("settings-save").click();
  await expect(page.getByTestId("settings-credits-error")).toHaveText("signupCredits must be 0 or more");
  await page.getByTestId("settings-signup-credits").fill("15");
  await page.getByTestId("settings-save").click();
  await expect(page.getByTestId("settings-saved")).toBeVisible();
  const newcomer = await playwright.request.newContext({ baseURL });
  expect(
    (await newcomer.post("/api/auth/signup", { data: { email: `e2e-newcomer-${Date.now()}@example.com`, password: PASSWORD } })).status(),
  ).toBe(200);
  expect((await (await newcomer.get("/api/user/credits")).json()).data.balance).toBe(15);
  await page.getByTestId("settings-signup-credits").fill("10");
  await page.getByTestId("settings-save").click();
  await expect(page.getByTestId("settings-saved")).toBeVisible();

  // Activity: the settings change is in the log.
  await page.goto("/admin/activity");
  await page.getByTestId("activity-action").fill("admin.settings_updated");
  await expect(page.getByTestId("activity-row").first()).toContainText("admin.settings_updated");

  // System and health.
  await page.goto("/admin/system");
  await expect(page.getByTestId("queue-row").first()).toBeVisible();
  await expect(page.locator('[data-check="database"]')).toContainText("ok");
  // No SMTP_URL here: the page says that mail waits, rather than pretending it goes out.
  await expect(page.getByTestId("admin-mail")).toContainText("No mail server is set");
  await page.getByTestId("integrity-run").click();
  await expect(page.getByTestId("integrity-finding")).toHaveCount(5);
});

test("the admin console fits a 390 px phone", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsAdmin(page);
  for (const path of [
    "/admin/overview",
    "/admin/leads",
    "/admin/agents",
    "/admin/settings",
    "/admin/system",
    "/admin/activity",
    "/admin/marketing",
  ]) {
    await page.goto(path);
    await expect(page.getByTestId("admin-nav")).toBeVisible();
    await page.waitForLoadState("networkidle");
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/phone${path.replace(/\//g, "-")}.png`, fullPage: true });
  }
  await page.goto("/admin/overview");
  await expect(page.getByTestId("admin-funnel")).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/phone-overview.png`, fullPage: true });
});

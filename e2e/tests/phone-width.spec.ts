// Every main page fits a 390 px wide phone: nothing scrolls sideways, and the app's navigation is one
// Menu button away (a phone has no room for the whole navigation). Screenshots of each page land in test-results/phone/.
import { mkdirSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";

const SHOTS = "test-results/phone";
mkdirSync(SHOTS, { recursive: true });
const WIDTH = 390;
test.use({ viewport: { width: WIDTH, height: 844 } });

const ADMIN = { email: "e2e-admin@example.com", password: "e2e-admin-password" };

/** Fails with the elements that stick out past the right edge, so the culprit is named. */
async function expectFits(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  const result = await page.evaluate((width) => {
    const wide = Array.from(document.querySelectorAll<HTMLElement>("body *"))
      .filter((el) => el.getBoundingClientRect().right > width + 0.5 && el.getClientRects().length > 0)
      .filter((el) => !el.closest("[aria-hidden='true']"))
      .slice(0, 8)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className} (${Math.round(el.getBoundingClientRect().right)}px)`);
    return { scrollWidth: document.documentElement.scrollWidth, wide };
  }, WIDTH);
  expect(result.scrollWidth, `${name} is ${result.scrollWidth}px wide; sticking out: ${result.wide.join(", ")}`).toBeLessThanOrEqual(WIDTH);
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByTestId("email").fill(email);
  await page.getByTestId("password").fill(password);
  await page.getByTestId("submit").click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

test("signed-out pages fit 390 px", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByTestId("plans")).toBeVisible();
  await expectFits(page, "landing");
  // The Premium column of the workflow prices is on screen, not cut off.
  const premium = page.getByTestId("pricing-table").getByRole("columnheader", { name: /premium/i });
  await premium.scrollIntoViewIfNeeded();
  const box = await premium.boundingBox();
  expect(box && box.x + box.width).toBeLessThanOrEqual(WIDTH);

  await page.goto("/login");
  await expect(page.getByTestId("login-form")).toBeVisible();
  await expectFits(page, "login");
  await page.goto("/signup");
  await expect(page.getByTestId("signup-form")).toBeVisible();
  await expectFits(page, "signup");
});

test("signed-in pages fit 390 px, and the menu reaches every area", async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page.getByTestId("dashboard")).toBeVisible();
  await expectFits(page, "dashboard");

  // On a phone the nav sits behind a Menu button; opened, it lists every area, Admin included.
  const toggle = page.getByTestId("nav-toggle");
  await expect(toggle).toBeVisible();
  await expect(page.getByRole("link", { name: "Settings" })).toBeHidden();
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await page.screenshot({ path: `${SHOTS}/menu-open.png` });
  for (const name of ["Dashboard", "Studio", "Projects", "Prompts", "Settings", "Admin"]) {
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name })).toBeInViewport();
  }
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByTestId("webhook-panel")).toBeVisible();
  await expectFits(page, "settings");

  await page.goto("/studio");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectFits(page, "studio");

  // The bootstrapped administrator starts with no credits: grant some for one run, so Projects and
  // the job page have something to show.
  const me = (await (await page.request.get("/api/user/profile")).json()).data.id as string;
  expect((await page.request.post(`/api/admin/users/${me}/credits`, { data: { amount: 5, reason: "e2e phone width" } })).status()).toBe(
    200,
  );
  const launched = await page.request.post("/api/workflow", { data: { type: "staticad", concept: "A cold brew for long mornings" } });
  expect(launched.status(), await launched.text()).toBe(200);
  const jobId = (await launched.json()).data.jobId as string;
  await page.goto("/projects");
  await expect(page.getByText(/cold brew/i).first()).toBeVisible();
  await expectFits(page, "projects");

  await page.goto("/admin");
  await expect(page.getByTestId("admin-user-row").first()).toBeVisible();
  await expectFits(page, "admin");
  await page.getByTestId("admin-user-link").first().click();
  await expect(page.getByTestId("admin-user")).toBeVisible();
  await expectFits(page, "admin-user");

  await page.goto(`/studio/jobs/${jobId}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectFits(page, "job");
});

// The projects page, where a user finds and manages past ads: names from the concept, renamed in place, search, "make another like this",
// delete with an in-app confirmation, and a page that fits a 390 px phone.
import { expect, type Page, test } from "@playwright/test";
import { signUpInBrowser } from "./support/browser.ts";

async function launch(page: Page, concept: string): Promise<string> {
  const res = await page.request.post("/api/workflow", { data: { type: "staticad", concept, formats: ["1:1"] } });
  expect(res.status(), await res.text()).toBe(200);
  const jobId = (await res.json()).data.jobId as string;
  await expect
    .poll(async () => (await (await page.request.get(`/api/workflow/job?jobId=${jobId}`)).json()).data.status, { timeout: 60_000 })
    .toBe("completed");
  return jobId;
}

const card = (page: Page, id: string) => page.locator(`[data-testid="project-card"][data-project-id="${id}"]`);

test("rename, search, make another like this, and delete a project", async ({ page }) => {
  await signUpInBrowser(page, "e2e-projects");
  const bread = await launch(page, "Sourdough loaves baked every morning");
  const candles = await launch(page, "Hand-poured soy candles for winter evenings");

  await page.goto("/projects");
  await expect(card(page, bread).getByTestId("project-name")).toHaveText("Sourdough loaves baked every morning");

  // Rename in place: Enter saves, and the new name stays after a reload.
  await card(page, bread).getByTestId("rename-project").click();
  await card(page, bread).getByTestId("rename-input").fill("Bakery spring launch");
  await card(page, bread).getByTestId("rename-input").press("Enter");
  await expect(card(page, bread).getByTestId("project-name")).toHaveText("Bakery spring launch");
  await page.reload();
  await expect(card(page, bread).getByTestId("project-name")).toHaveText("Bakery spring launch");

  // An empty name is refused in words, before anything is sent.
  await card(page, bread).getByTestId("rename-project").click();
  await card(page, bread).getByTestId("rename-input").fill("   ");
  await card(page, bread).getByTestId("rename-save").click();
  await expect(card(page, bread).getByRole("alert")).toHaveText("Give the project a name: it cannot be empty");
  await card(page, bread).getByTestId("rename-input").press("Escape");

  // Search by the new name, then by the concept, in any case; the search lives in the URL.
  await page.getByTestId("project-search").fill("BAKERY");
  await expect(page.getByTestId("project-card")).toHaveCount(1);
  await expect(card(page, bread)).toBeVisible();
  await expect(page).toHaveURL(/[?&]q=BAKERY/);
  await page.getByTestId("project-search").fill("soy candles");
  await expect(page.getByTestId("project-card")).toHaveCount(1);
  await expect(card(page, candles)).toBeVisible();
  await page.getByTestId("project-search").fill("nothing like this");
  await expect(page.getByTestId("projects-empty-search")).toBeVisible();
  await page.getByTestId("project-search").fill("");
  await expect(page.getByTestId("project-card")).toHaveCount(2);

  // Make another like this: the studio, told which project to start from, and nothing charged.
  const balance = async () => (await (await page.request.get("/api/user/credits")).json()).data.balance as number;
  const before = await balance();
  await card(page, candles).getByTestId("duplicate-project").click();
  await expect(page).toHaveURL(new RegExp(`/studio\\?from=${candles}$`));
  expect(await balance()).toBe(before);
  await page.goto("/projects");

  // Delete asks first, in the app; keeping it changes nothing.
  await card(page, candles).getByTestId("delete-project").click();
  const dialog = card(page, candles).getByTestId("delete-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Hand-poured soy candles");
  await dialog.getByTestId("confirm-dialog-keep").click();
  await expect(dialog).toBeHidden();
  await expect(card(page, candles)).toBeVisible();

  await card(page, candles).getByTestId("delete-project").click();
  await dialog.getByTestId("confirm-dialog-confirm").click();
  await expect(card(page, candles)).toHaveCount(0);
  await expect(page.getByTestId("project-card")).toHaveCount(1);
  expect((await page.request.get(`/api/workflow/job?jobId=${candles}`)).status()).toBe(404);
});

test.describe("on a 390 px phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the projects page fits without scrolling sideways", async ({ page }) => {
    await signUpInBrowser(page, "e2e-projects-phone");
    await launch(page, "A cold brew for long mornings, brewed slowly for twenty hours and poured over ice");
    await page.goto("/projects");
    await expect(page.getByTestId("project-card")).toHaveCount(1);
    await page.getByTestId("rename-project").click();
    await expect(page.getByTestId("rename-input")).toBeVisible();
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      wide: Array.from(document.querySelectorAll<HTMLElement>("body *"))
        .filter((el) => el.getBoundingClientRect().right > 390.5 && el.getClientRects().length > 0)
        .slice(0, 6)
        .map((el) => `${el.tagName.toLowerCase()}.${el.className}`),
    }));
    expect(widths.page, `sticking out: ${widths.wide.join(", ")}`).toBeLessThanOrEqual(390);
  });
});

// The places where a new user used to get stuck, each now saying what to do: launching with no credits, workflows the
// trial leaves out, "Try again" after a run stops, cancelling, titles made of ids, a cost estimate that
// shows the previous workflow's figures, an empty dashboard, and console errors while signed out.
import { expect, type Page, test } from "@playwright/test";
import { expectNoSidewaysScroll, signUpInBrowser } from "./support/browser.ts";

/** Where a screenshot of this test goes (under the run's output folder), to be looked at. */
const shot = (name: string) => test.info().outputPath(name);

/** Launches through the API with the page's session cookie; answers the job id. */
async function launch(page: Page, body: Record<string, unknown>): Promise<string> {
  const res = await page.request.post("/api/workflow", { data: body });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).data.jobId as string;
}

async function balance(page: Page): Promise<number> {
  return (await (await page.request.get("/api/user/credits")).json()).data.balance;
}

/** The page fits the viewport: nothing scrolls sideways (the message names what sticks out). */

test("signed-out pages log no console error for the session check", async ({ page }) => {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  const failed: string[] = [];
  page.on("response", (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
  });
  for (const path of ["/", "/login", "/signup"]) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
  }
  // A protected page still sends a signed-out visitor to the login form.
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login$/);
  await page.waitForLoadState("networkidle");
  expect(failed).toEqual([]);
  expect(errors).toEqual([]);
});

test("a trial account sees reserved workflows disabled with the reason, and the dashboard never offers them", async ({ page }) => {
  await signUpInBrowser(page, "e2e-trial");

  // 10 credits would be "1 run" of Influencer (8): a trial account is told it is for paid plans instead.
  const influencer = page.getByTestId("cost-influencer");
  await expect(influencer).toContainText("paid plans only");
  await expect(influencer).not.toContainText("run");
  await expect(page.getByTestId("cost-brand")).toContainText("paid plans only");
  await expect(page.getByTestId("cost-cinematic")).toContainText("10 runs");

  await page.goto("/studio");
  for (const type of ["influencer", "brand"]) {
    const card = page.getByTestId(`workflow-type-${type}`);
    await expect(card).toHaveAttribute("data-disabled", "true");
    await expect(card.getByRole("radio")).toBeDisabled();
    await expect(page.getByTestId(`type-reserved-${type}`)).toContainText(/Not included in the Trial plan\. Any paid plan unlocks it/);
    await card.click({ force: true });
    await expect(card).toHaveAttribute("data-selected", "false");
  }
  // A default saved for a reserved type does not preselect it either.
  await expect(page.getByTestId("workflow-form")).not.toHaveAttribute("data-type", /influencer|brand/);
  expect(await balance(page)).toBe(10);
});

test("switching workflow shows a placeholder, never the previous workflow's cost", async ({ page }) => {
  await signUpInBrowser(page, "e2e-estimate");
  await page.goto("/studio");
  await page.getByTestId("workflow-type-cinematic").click();
  await expect(page.getByTestId("cost-estimate")).toHaveAttribute("data-type", "cinematic");
  await expect(page.getByTestId("estimate-cost")).toHaveText("1 credit");

  // Record every moment the estimate shows figures for a type other than the form's.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { mismatches: string[] }).mismatches = seen;
    const check = () => {
      const form = document.querySelector("[data-testid=workflow-form]");
      const estimate = document.querySelector("[data-testid=cost-estimate]");
      const shown = estimate?.getAttribute("data-type");
      if (shown && form && shown !== form.getAttribute("data-type")) seen.push(`${form.getAttribute("data-type")} showed ${shown}`);
    };
    new MutationObserver(check).observe(document.body, { subtree: true, attributes: true, childList: true, characterData: true });
  });
  await page.getByTestId("workflow-type-factory").click();
  await expect(page.getByTestId("estimate-placeholder")).toBeVisible();
  await expect(page.getByTestId("cost-estimate")).toHaveAttribute("data-type", "factory");
  await expect(page.getByTestId("estimate-cost")).toHaveText("3 credits");
  await page.getByTestId("workflow-type-staticad").click();
  await expect(page.getByTestId("cost-estimate")).toHaveAttribute("data-type", "staticad");
  expect(await page.evaluate(() => (window as unknown as { mismatches: string[] }).mismatches)).toEqual([]);
});

test("cancel asks in an in-app dialog, refunds in full, and Try again restores every setting", async ({ page }) => {
  await signUpInBrowser(page, "e2e-cancel");
  const concept = "Cold brew that tastes like summer. Ready in one minute, no machine needed.";

  await page.goto("/studio");
  await page.getByTestId("workflow-type-cinematic").click();
  const form = page.getByTestId("workflow-form");
  await form.getByTestId("field-concept").fill(concept);
  await form.getByTestId("field-quality-premium").check();
  await form.getByTestId("format-1x1").check();
  await form.getByTestId("field-framework").selectOption("aida");
  await form.getByTestId("field-hitl").check();
  await expect(page.getByTestId("estimate-cost")).toHaveText("2 credits");
  await form.getByTestId("launch").click();
  await expect(page).toHaveURL(/\/studio\/jobs\/[0-9a-f-]+$/);
  const jobId = page.url().split("/").pop()!;

  // The title is the project's name (the concept's first words), never an id.
  const title = page.getByTestId("job-title");
  await expect(title).toHaveText("Cold brew that tastes like summer");
  await expect(page.locator(".breadcrumbs")).toContainText("Cold brew that tastes like summer");
  await expect(page.locator(".breadcrumbs")).not.toContainText(jobId.slice(0, 8));
  expect(await balance(page)).toBe(8);

  // No native confirm(): a browser dialog would fail this test.
  page.on("dialog", (dialog) => {
    throw new Error(`unexpected native dialog: ${dialog.message()}`);
  });
  await page.getByTestId("cancel-job").click();
  const dialog = page.getByRole("dialog", { name: "Cancel this job?" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("The 2 credits it used go back to your balance in full");
  await expect(page.getByTestId("confirm-dialog-keep")).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByTestId("confirm-dialog-confirm")).toBeFocused();
  await page.screenshot({ path: shot("cancel-dialog.png") });
  // Escape closes it and nothing happens.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("cancel-job")).toBeFocused();
  expect(await balance(page)).toBe(8);

  await page.getByTestId("cancel-job").click();
  await page.getByTestId("confirm-dialog-confirm").click();
  await expect(page.getByTestId("job-status")).toHaveAttribute("data-cancelled", "true");
  await expect(page.getByTestId("job-refund")).toContainText("2 credits refunded");
  expect(await balance(page)).toBe(10);

  await page.getByTestId("try-again").click();
  await expect(page).toHaveURL(/\/studio\?/);
  await expect(page.getByTestId("retry-restored")).toBeVisible();
  const again = page.getByTestId("workflow-form");
  await expect(again).toHaveAttribute("data-type", "cinematic");
  await expect(again.getByTestId("field-concept")).toHaveValue(concept);
  await expect(again.getByTestId("field-quality-premium")).toBeChecked();
  await expect(again.getByTestId("format-1x1")).toBeChecked();
  await expect(again.getByTestId("format-9x16")).toBeChecked();
  await expect(again.getByTestId("field-framework")).toHaveValue("aida");
  await expect(again.getByTestId("field-hitl")).toBeChecked();
  await expect(page.getByTestId("estimate-cost")).toHaveText("2 credits");
  // The re-run spends only when its own button, which says the price, is pressed: no surprise charge.
  expect(await balance(page)).toBe(10);
  await expect(page.getByTestId("launch")).toHaveText("Launch Director for 2 credits");
  await page.getByTestId("launch").click();
  await expect(page).toHaveURL(/\/studio\/jobs\//);
  expect(await balance(page)).toBe(8);
});

test("with no credits, Launch is off and links to the Billing page to buy credits", async ({ page }) => {
  await signUpInBrowser(page, "e2e-broke");
  // Five premium Director runs held for review spend all 10 credits.
  for (let i = 0; i < 5; i++) {
    await launch(page, { type: "cinematic", quality: "premium", hitl: true, concept: `Run ${i + 1}: a cold brew ad` });
  }
  expect(await balance(page)).toBe(0);

  await page.goto("/studio");
  await page.getByTestId("workflow-type-cinematic").click();
  await page.getByTestId("workflow-form").getByTestId("field-concept").fill("One more ad");
  const launchButton = page.getByTestId("launch");
  await expect(launchButton).toBeDisabled();
  await expect(page.getByTestId("launch-disabled-reason")).toHaveText("Launch is off: your balance does not cover this run.");
  await expect(page.getByTestId("launch-blocked")).toContainText("Not enough credits: needs 1, you have 0.");
  await expect(page.getByTestId("launch-remedy")).toContainText("Buy a credit pack or choose a plan on the Billing page");
  await expect(page.getByTestId("launch-remedy-billing")).toHaveAttribute("href", "/billing");
  await expect(page.locator('a[href="/#pricing"]').filter({ hasText: /credit/i })).toHaveCount(0);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId("launch").scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot("studio-no-credits-390.png") });
  await expectNoSidewaysScroll(page);

  // The dashboard shows these runs and the credits they used today.
  await page.goto("/dashboard");
  await expect(page.getByTestId("recent-project")).toHaveCount(4);
  await expect(page.getByTestId("recent-project").first()).toContainText("Run 5: a cold brew ad");
  await expect(page.getByTestId("usage-total")).toHaveText("10 credits · 5 runs");
  await expect(page.locator(".usage-bar").last()).toHaveAttribute("data-credits", "10");
  await page.screenshot({ path: shot("dashboard-390.png"), fullPage: true });
  await expectNoSidewaysScroll(page);
});

test("the studio, the dashboard and a job fit a 390 px wide phone", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signUpInBrowser(page, "e2e-phone");
  await expectNoSidewaysScroll(page);
  await page.goto("/studio");
  await expect(page.getByTestId("workflow-form")).toBeVisible();
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: shot("studio-390.png"), fullPage: true });
  const jobId = await launch(page, { type: "staticad", concept: "A very long concept ".repeat(8) });
  await page.goto(`/studio/jobs/${jobId}`);
  // A concept with no short first clause names the project by its kind of ad, never cut mid-sentence.
  await expect(page.getByTestId("job-title")).toHaveText("Static ads");
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: shot("job-390.png"), fullPage: true });
});

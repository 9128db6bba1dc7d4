import { expect, test } from "@playwright/test";
import { signUpInBrowser } from "./support/browser.ts";

/** A new account, signed in through the signup form; lands on the dashboard with 10 credits. */

interface StoryboardScene {
  id: string;
  headline: string;
}

test("review edits render: a headline changed and a scene dropped in review are in the result", async ({ page }) => {
  await signUpInBrowser(page, "e2e-review");

  await page.goto("/studio");
  await page.getByTestId("workflow-type-cinematic").click();
  const form = page.getByTestId("workflow-form");
  await form.getByTestId("field-concept").fill("Cold brew that tastes like summer. Ready in one minute.");
  await form.getByTestId("field-hitl").check();
  await form.getByTestId("launch").click();

  await expect(page).toHaveURL(/\/studio\/jobs\/[0-9a-f-]+$/);
  const jobId = page.url().split("/").pop()!;

  const panel = page.getByTestId("review-panel");
  await expect(panel).toBeVisible({ timeout: 30_000 });
  const scenes = panel.getByTestId("review-scene");
  await expect(scenes.first()).toBeVisible();
  const before = await scenes.count();
  expect(before).toBeGreaterThan(1);
  const ids = await scenes.evaluateAll((els) => els.map((el) => el.getAttribute("data-scene-id") ?? ""));

  // The score and its checks are shown with the storyboard.
  await expect(panel.getByTestId("creative-score")).toBeVisible();
  await expect(panel.getByTestId("creative-score-value")).toHaveText(/^\d+$/);

  // The reject button names the refund.
  await expect(panel.getByTestId("reject")).toHaveText("Reject and refund 1 credit");

  // Edit the first scene's headline; the counter follows.
  const headline = "Summer in a can, ready now";
  const first = scenes.first();
  await first.getByTestId("scene-headline").fill(headline);
  await expect(first).toContainText(`${headline.length}/120`);

  // Drop the last scene: it greys out and says so.
  const last = scenes.last();
  await last.getByTestId("scene-drop").click();
  await expect(last).toHaveAttribute("data-dropped", "true");
  await expect(last.getByTestId("scene-drop")).toHaveText("Restore");
  await expect(panel.getByTestId("review-summary")).toContainText(`Renders ${before - 1} of ${before} scenes`);

  await panel.getByTestId("approve").click();

  // The page's live progress takes over, to the end.
  await expect(panel).toBeHidden({ timeout: 15_000 });
  await expect(page.getByTestId("job-status")).toHaveAttribute("data-status", "completed", { timeout: 60_000 });

  const response = await page.request.get(`/api/workflow/job?jobId=${encodeURIComponent(jobId)}`);
  expect(response.status()).toBe(200);
  const job = (await response.json()).data as { result: { storyboard: { scenes: StoryboardScene[] } } };
  const rendered = job.result.storyboard.scenes;
  expect(rendered).toHaveLength(before - 1);
  expect(rendered[0]?.id).toBe(ids[0]);
  expect(rendered[0]?.headline).toBe(headline);
  expect(rendered.map((s) => s.id)).not.toContain(ids[ids.length - 1]);
});

test("the last scene left cannot be dropped, and says why", async ({ page }) => {
  await signUpInBrowser(page, "e2e-review-last");

  await page.goto("/studio");
  await page.getByTestId("workflow-type-cinematic").click();
  const form = page.getByTestId("workflow-form");
  await form.getByTestId("field-concept").fill("Fresh bread every morning, delivered.");
  await form.getByTestId("field-hitl").check();
  await form.getByTestId("launch").click();

  const panel = page.getByTestId("review-panel");
  await expect(panel).toBeVisible({ timeout: 30_000 });
  const scenes = panel.getByTestId("review-scene");
  await expect(scenes.first()).toBeVisible();
  const count = await scenes.count();
  for (let i = 1; i < count; i++) await scenes.nth(i).getByTestId("scene-drop").click();
  await expect(scenes.first().getByTestId("scene-drop")).toBeDisabled();
  await expect(scenes.first().getByTestId("scene-last-note")).toContainText("at least one scene");

  // Reject refunds the charge.
  await panel.getByTestId("reject").click();
  await expect(page.getByTestId("job-status")).toHaveAttribute("data-status", "failed", { timeout: 15_000 });
  const credits = await page.request.get("/api/user/credits");
  expect((await credits.json()).data.balance).toBe(10);
});

import { expect, test } from "@playwright/test";
import { signUpInBrowser } from "./support/browser.ts";
import { plainPng } from "./support/images.ts";

// Free previews in the studio: preview the scenes (nothing charged), change a headline and a picture and
// preview again, then launch: the rendered ad carries the changed line and picture, and only the launch is
// charged.
test("preview the scenes for free, change a line and a picture, preview again, then launch that storyboard", async ({ page }) => {
  // Two previews and a render on a shared machine.
  test.setTimeout(180_000);
  await signUpInBrowser(page, "e2e-preview");
  // A product photo in the brand library: the scenes' pictures can be chosen among the library's photos.
  const uploaded = await page.request.post("/api/user/brand/media", {
    multipart: { file: { name: "backpack.png", mimeType: "image/png", buffer: plainPng(400, [200, 30, 160]) } },
  });
  expect(uploaded.status()).toBe(200);
  await page.goto("/studio");
  await page.getByTestId("workflow-type-painpoint").click();
  const form = page.getByTestId("workflow-form");
  await form.getByTestId("field-concept").fill("Backpacks that never tear. Waterproof, with a ten-year warranty.");

  const previews = page.getByTestId("storyboard-previews");
  await previews.getByRole("button", { name: "Preview scenes" }).click();
  await expect(previews.getByTestId("preview-summary")).toContainText("launching this costs 1 credit", { timeout: 45_000 });
  const firstStill = previews.getByRole("img").first();
  await expect.poll(() => firstStill.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  expect((await (await page.request.get("/api/user/credits")).json()).data.balance).toBe(10);

  await previews.getByLabel("Scene 1 headline").fill("Rain cannot get in");
  const scene2Picture = previews.getByRole("combobox", { name: /^Scene 2 picture/ });
  await expect(scene2Picture.getByRole("option", { name: "backpack.png" })).toHaveCount(1);
  await scene2Picture.selectOption({ label: "No picture (the scene's colours)" });
  await previews.getByRole("button", { name: "Preview again with my changes" }).click();
  await expect(previews.getByRole("img", { name: "Scene 1: Rain cannot get in" })).toBeVisible({ timeout: 45_000 });
  expect((await (await page.request.get("/api/user/credits")).json()).data.balance).toBe(10);

  await form.getByTestId("launch").click();
  await expect(page).toHaveURL(/\/studio\/jobs\/[0-9a-f-]+$/);
  const jobId = page.url().split("/").pop()!;
  await expect(page.getByTestId("job-status")).toHaveAttribute("data-status", "completed", { timeout: 120_000 });
  const job = (await (await page.request.get(`/api/workflow/job?jobId=${jobId}`)).json()).data;
  expect(job.result.storyboard.scenes[0].headline).toBe("Rain cannot get in");
  // The library's photo is in the other scenes; the one the user took it from shows none.
  expect(job.result.storyboard.scenes[1].imageKey).toBeUndefined();
  expect(job.result.storyboard.scenes.filter((scene: { imageKey?: string }) => scene.imageKey).length).toBeGreaterThan(0);
  expect((await (await page.request.get("/api/user/credits")).json()).data.balance).toBe(9);
});

import { expect, test } from "@playwright/test";
import { expectNoSidewaysScroll, signUpInBrowser } from "./support/browser.ts";

/** A new account, signed in through the signup form; lands on the dashboard with 10 credits. */

interface WorkflowPrice {
  type: string;
  standard: number;
  premium: number;
}

const credits = (n: number) => `${n} ${n === 1 ? "credit" : "credits"}`;

/** The page is no wider than the window: nothing to scroll sideways. */

test("the studio shows each type only the fields it uses, with the price of each option", async ({ page }) => {
  await signUpInBrowser(page, "e2e-fields");
  const pricing = (await (await page.request.get("/api/config/pricing")).json()).data as { workflows: WorkflowPrice[] };
  const price = (type: string) => pricing.workflows.find((w) => w.type === type)!;

  await page.goto("/studio");
  const form = page.getByTestId("workflow-form");

  // Every type card shows its standard and its premium price.
  for (const type of ["cinematic", "influencer", "staticad"]) {
    const { standard, premium } = price(type);
    const card = page.getByTestId(`type-price-${type}`);
    await expect(card).toContainText(credits(standard));
    await expect(card).toContainText(premium === standard ? "Premium same price" : `Premium ${credits(premium)}`);
  }

  // Director: a product page is optional; no images-only switch, no project, no voice model.
  await page.getByTestId("workflow-type-cinematic").click();
  await expect(form).toHaveAttribute("data-type", "cinematic");
  await expect(form.getByTestId("field-url")).toBeVisible();
  await expect(form.getByTestId("field-url")).not.toHaveAttribute("required", "");
  await expect(form.getByTestId("field-model-video")).toBeVisible();
  await expect(form.getByTestId("field-imagesOnly")).toHaveCount(0);
  await expect(form.getByTestId("field-project")).toHaveCount(0);
  await expect(form.getByTestId("field-model-voice")).toHaveCount(0);

  // The quality choice says what each tier costs for this type, and premium's extra.
  const cinematic = price("cinematic");
  await expect(form.getByTestId("quality-price-standard")).toHaveText(credits(cinematic.standard));
  await expect(form.getByTestId("quality-price-premium")).toHaveText(credits(cinematic.premium));
  await expect(form.getByTestId("quality-premium-extra")).toHaveText(`+${credits(cinematic.premium - cinematic.standard)}`);
  await expect(form.getByTestId("options-included")).toContainText("included in the price");
  await form.getByTestId("field-quality-premium").check();
  await expect(page.getByTestId("estimate-cost")).toHaveText(credits(cinematic.premium));
  await expect(form.getByTestId("quality-description")).toHaveText(
    "Premium gives this ad full resolution and twice the frames (smoother motion and type), 192 kbps audio and a sharper thumbnail, and a second cut per format that opens on another hook, at no extra charge.",
  );
  await expect(form.getByTestId("quality-description")).not.toContainText("factory");
  await form.getByTestId("field-quality-standard").check();
  await expect(page.getByTestId("estimate-cost")).toHaveText(credits(cinematic.standard));
  // What premium buys a video, in one line under its price.
  await expect(form.getByTestId("quality-buys-premium")).toContainText("one more cut per format");

  // A static ad costs the same at both tiers and is made the same: no choice that would mean nothing.
  await page.getByTestId("workflow-type-staticad").click();
  await expect(form.getByTestId("quality-single")).toContainText("One quality for this type");
  await expect(form.getByTestId("field-quality-premium")).toHaveCount(0);
  await page.getByTestId("workflow-type-cinematic").click();

  // Multi-Format: the URL is required, and only this type offers images only, which drops the video model.
  await page.getByTestId("workflow-type-factory").click();
  await expect(form.getByTestId("field-url")).toHaveAttribute("required", "");
  await expect(form.getByTestId("field-imagesOnly")).toBeVisible();
  await expect(form.getByTestId("field-model-video")).toBeVisible();
  await form.getByTestId("field-imagesOnly").check();
  await expect(form.getByTestId("field-model-video")).toHaveCount(0);
  await expect(form.getByTestId("field-model-image")).toBeVisible();

  // Ad Optimizer: a select of the user's finished projects (a new account has none, and is told so), no
  // URL, and no framework or preset: it keeps its source ad's look.
  await page.getByTestId("workflow-type-ad-optimizer").click();
  await expect(form.getByTestId("field-project")).toBeVisible();
  await expect(form.getByTestId("project-none")).toContainText(/no finished project/i);
  await expect(form.getByTestId("field-url")).toHaveCount(0);
  await expect(form.getByTestId("field-imagesOnly")).toHaveCount(0);
  await expect(form.getByTestId("field-framework")).toHaveCount(0);
  await expect(form.getByTestId("field-adPreset")).toHaveCount(0);

  // Presenter speaks: a voice model is offered.
  await page.getByTestId("workflow-type-avatar").click();
  await expect(form.getByTestId("field-model-voice")).toBeVisible();
  await expect(form.getByTestId("field-project")).toHaveCount(0);

  // Static ads have no video; Inspiration follows its reference, so it has no copy framework.
  await page.getByTestId("workflow-type-staticad").click();
  await expect(form.getByTestId("field-model-video")).toHaveCount(0);
  await expect(form.getByTestId("field-framework")).toBeVisible();
  await page.getByTestId("workflow-type-clone").click();
  await expect(form.getByTestId("field-framework")).toHaveCount(0);
  await expect(form.getByTestId("field-url")).toHaveAttribute("required", "");

  // A local audit with no website in the brand profile must be given the page, and says so before launching.
  await page.getByTestId("workflow-type-local-audit").click();
  await expect(form.getByTestId("url-fallback")).toContainText(/no website/i);
  await form.getByTestId("launch").click();
  await expect(form.getByTestId("field-error-url")).toContainText(/needs a web page to work from/i);
  const balance = (await (await page.request.get("/api/user/credits")).json()).data.balance;
  expect(balance).toBe(10);
});

test("a finished static ad shows a gallery of its image ads, and studio and job fit a 390 px phone", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signUpInBrowser(page, "e2e-gallery");

  await page.goto("/studio");
  await expect(page.getByTestId("workflow-form")).toBeVisible();
  await expectNoSidewaysScroll(page);

  await page.getByTestId("workflow-type-staticad").click();
  const form = page.getByTestId("workflow-form");
  await form.getByTestId("field-concept").fill('Fresh sourdough delivered by 7am. Tagline: "Wake up to bread"');
  await form.getByTestId("format-1x1").check();
  await expectNoSidewaysScroll(page);
  await form.getByTestId("launch").click();

  await expect(page).toHaveURL(/\/studio\/jobs\/[0-9a-f-]+$/);
  await expectNoSidewaysScroll(page);
  await expect(page.getByTestId("job-status")).toHaveAttribute("data-status", "completed", { timeout: 60_000 });

  // A gallery, by format, of still ads: each with its variant letter, headline and layout, and its own download.
  const gallery = page.getByTestId("image-gallery");
  await expect(gallery).toBeVisible();
  await expect(page.getByTestId("job-result")).toHaveAttribute("data-view", "gallery");
  for (const format of ["9:16", "1:1"]) {
    const items = gallery.locator(`[data-testid="gallery-item"][data-format="${format}"]`);
    expect(await items.count()).toBeGreaterThan(1);
    const first = items.first();
    await expect(first).toContainText("Variant A");
    await expect(first.locator(".gallery-headline")).toHaveText(/\w+/);
    const image = first.locator("img");
    await image.scrollIntoViewIfNeeded();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0))).toBeGreaterThan(0);
  }
  await expect(page.locator("video")).toHaveCount(0);

  const href = await gallery.getByTestId("download-1x1-a").getAttribute("href");
  const download = await page.request.get(href!);
  expect(download.status()).toBe(200);
  expect(download.headers()["content-disposition"]).toMatch(/attachment/);
  const png = await download.body();
  expect(png.subarray(1, 4).toString()).toBe("PNG");
  // 1080×1080: the PNG header's width and height.
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1080, 1080]);

  await expectNoSidewaysScroll(page);
});

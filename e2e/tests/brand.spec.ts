// The Brand page: a brand's profile with colour pickers and a logo preview, a second brand and
// the switcher, the publishing schedule with its errors in place, and the knowledge base: a document
// uploaded with a progress bar, its status turning ready on its own, its text previewed, refusals
// explained on the file's row, and delete. Also on a 390 px phone.
import { mkdirSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { signUpInBrowser } from "./support/browser.ts";
import { plainPng } from "./support/images.ts";

const SHOTS = "test-results/brand";
mkdirSync(SHOTS, { recursive: true });

test("profiles: save a brand with colours and a logo, add a second, switch between them", async ({ page }) => {
  await signUpInBrowser(page, "e2e-brand");
  await page.getByRole("link", { name: "Brand" }).first().click();
  await expect(page).toHaveURL(/\/brand$/);
  const form = page.getByTestId("brand-profile-form");

  // A bad colour is explained under its field; nothing is saved.
  await form.getByTestId("brand-name").fill("Brewly");
  await form.getByTestId("brand-color-primary").fill("blue-ish");
  await form.getByTestId("brand-save").click();
  await expect(form.getByTestId("field-error-color-primary")).toContainText("hex colour");

  await form.getByTestId("brand-color-primary").fill("#0a84ff");
  await form.getByTestId("brand-color-picker-accent").fill("#ff375f");
  await form.getByTestId("brand-logoUrl").fill("https://brewly.example/logo.png");
  await expect(form.getByTestId("brand-logo-preview").locator("img")).toHaveAttribute("src", "https://brewly.example/logo.png");
  await form.getByTestId("brand-tone").fill("Warm and wry");
  await form.getByTestId("brand-save").click();
  await expect(page.getByTestId("brand-saved")).toBeVisible();
  await expect(page.getByTestId("brand-select")).toContainText("Brewly (default)");

  // A second brand.
  await page.getByTestId("brand-new").click();
  await page.getByTestId("brand-name").fill("Sleepwell");
  await page.getByTestId("brand-save").click();
  await expect(page.getByTestId("brand-saved")).toBeVisible();
  await expect(page.getByTestId("brand-select").locator("option")).toHaveText(["Brewly (default)", "Sleepwell"]);

  // Switching shows each brand's own fields.
  await page.getByTestId("brand-select").selectOption({ label: "Brewly (default)" });
  await expect(page.getByTestId("brand-color-primary")).toHaveValue("#0a84ff");
  await expect(page.getByTestId("brand-color-accent")).toHaveValue("#ff375f");
  await expect(page.getByTestId("brand-tone")).toHaveValue("Warm and wry");
  await page.getByTestId("brand-select").selectOption({ label: "Sleepwell" });
  await expect(page.getByTestId("brand-name")).toHaveValue("Sleepwell");
  await expect(page.getByTestId("brand-tone")).toHaveValue("");
  await page.getByTestId("brand-make-default").click();
  await expect(page.getByTestId("brand-select")).toContainText("Sleepwell (default)");
  await page.screenshot({ path: `${SHOTS}/profiles.png`, fullPage: true });
});

test("schedule: refusals shown in place, then saved", async ({ page }) => {
  await signUpInBrowser(page, "e2e-schedule");
  await page.goto("/brand");
  const form = page.getByTestId("schedule-form");
  await form.getByTestId("schedule-save").click();
  await expect(form.getByTestId("field-error-platforms")).toContainText("platforms needs at least one");
  await form.getByTestId("schedule-platform-tiktok").check();
  await form.getByTestId("schedule-day-mon").check();
  await form.getByTestId("schedule-times").fill("9:30");
  await form.getByTestId("schedule-save").click();
  await expect(form.getByTestId("field-error-times")).toContainText("HH:MM");
  await form.getByTestId("schedule-times").fill("09:30, 18:00");
  await form.getByTestId("schedule-timezone").selectOption("Europe/Paris");
  await form.getByTestId("schedule-save").click();
  await expect(page.getByTestId("schedule-saved")).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("schedule-times")).toHaveValue("09:30, 18:00");
  await expect(page.getByTestId("schedule-timezone")).toHaveValue("Europe/Paris");
});

test("knowledge base: upload with progress, status turns ready, preview, refusals in place, delete", async ({ page }) => {
  await signUpInBrowser(page, "e2e-knowledge");
  await page.goto("/brand");
  const section = page.getByTestId("knowledge-base");
  await expect(section.getByTestId("knowledge-empty")).toBeVisible();

  await section.getByTestId("knowledge-file-input").setInputFiles([
    { name: "facts.txt", mimeType: "text/plain", buffer: Buffer.from("Each Brewly can holds 212 mg of caffeine.\n") },
    { name: "virus.pdf", mimeType: "application/pdf", buffer: Buffer.concat([Buffer.from("MZ"), Buffer.alloc(64)]) },
    { name: "slides.pptx", mimeType: "application/octet-stream", buffer: Buffer.from("PK") },
  ]);
  const errors = section.getByTestId("knowledge-upload-error");
  await expect(errors).toHaveCount(2);
  await expect(errors.nth(0)).toContainText("not a PDF, DOCX, XLSX, CSV or TXT");
  await expect(errors.nth(1)).toContainText("This type of file is not supported");

  const item = section.getByTestId("knowledge-item");
  await expect(item).toHaveCount(1);
  await expect(item.getByTestId("knowledge-status")).toHaveText("Ready", { timeout: 20_000 });
  await item.getByTestId("knowledge-preview-toggle").click();
  await expect(item.getByTestId("knowledge-preview")).toContainText("212 mg of caffeine");
  await expect(section.getByTestId("knowledge-count")).toContainText("1 of 9 files");

  // A private address is refused with the reason, under the field.
  await section.getByTestId("knowledge-url").fill("http://127.0.0.1/admin");
  await section.getByTestId("knowledge-url-add").click();
  await expect(section.getByTestId("knowledge-url-error")).toContainText(/private or local/);

  await item.getByTestId("knowledge-delete").click();
  // Nothing is deleted until the confirmation says so.
  await expect(page.getByTestId("knowledge-delete-confirm")).toBeVisible();
  await expect(item).toHaveCount(1);
  await page.getByTestId("knowledge-delete-confirm").getByTestId("confirm-ok").click();
  await expect(section.getByTestId("knowledge-empty")).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/knowledge.png`, fullPage: true });
});

test.describe("on a 390 px phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the Brand page fits: nothing scrolls sideways", async ({ page }) => {
    await signUpInBrowser(page, "e2e-brand-phone");
    await page.goto("/brand");
    await page.getByTestId("brand-name").fill("A brand with a rather long name for a small screen");
    await page.getByTestId("brand-save").click();
    await expect(page.getByTestId("brand-saved")).toBeVisible();
    await page.getByTestId("knowledge-file-input").setInputFiles({
      name: "a-document-with-a-very-long-file-name-that-must-not-push-the-page-sideways.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("Short text."),
    });
    await expect(page.getByTestId("knowledge-item").getByTestId("knowledge-status")).toHaveText("Ready", { timeout: 20_000 });
    await page.screenshot({ path: `${SHOTS}/phone.png`, fullPage: true });
    const result = await page.evaluate(() => {
      const wide = Array.from(document.querySelectorAll<HTMLElement>("body *"))
        .filter((el) => el.getBoundingClientRect().right > 390.5 && el.getClientRects().length > 0)
        .filter((el) => !el.closest("[aria-hidden='true']"))
        .slice(0, 8)
        .map((el) => `${el.tagName.toLowerCase()}.${el.className} (${Math.round(el.getBoundingClientRect().right)}px)`);
      return { scrollWidth: document.documentElement.scrollWidth, wide };
    });
    expect(result.scrollWidth, `the page is ${result.scrollWidth}px wide; sticking out: ${result.wide.join(", ")}`).toBeLessThanOrEqual(
      390,
    );
  });
});

test("media library: a presenter needs the person's name and permission before it uploads, then shows as the presenter", async ({
  page,
}) => {
  await signUpInBrowser(page, "e2e-presenter");
  await page.goto("/brand");
  const section = page.getByTestId("brand-media");
  await section.getByTestId("media-role-presenter").check();
  // Why consent is asked, and no upload until both are given.
  await expect(section.getByTestId("media-consent")).toContainText("permission");
  await expect(section.getByTestId("media-upload")).toBeDisabled();
  await section.getByTestId("media-consent-name").fill("Sam Lee");
  await expect(section.getByTestId("media-upload")).toBeDisabled();
  await section.getByTestId("media-consent-check").check();
  await expect(section.getByTestId("media-upload")).toBeEnabled();
  await section
    .getByTestId("media-file-input")
    .setInputFiles({ name: "sam.png", mimeType: "image/png", buffer: plainPng(400, [240, 120, 40]) });
  const tile = section.getByTestId("media-tile");
  await expect(tile).toHaveCount(1);
  await expect(tile.getByTestId("media-tile-role")).toHaveText("Presenter");
  await expect(tile).toContainText("consent: Sam Lee");
  // Footage takes clips only: a photo is refused in place, in words.
  await section.getByTestId("media-role-footage").check();
  await section
    .getByTestId("media-file-input")
    .setInputFiles({ name: "shot.png", mimeType: "image/png", buffer: plainPng(400, [20, 20, 200]) });
  await expect(section).toContainText("Product footage is a video clip: MP4, MOV or WebM.");
  await expect(section.getByTestId("media-tile")).toHaveCount(1);
});

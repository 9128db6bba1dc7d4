// What a new user tripped over, round two: places that led nowhere now say what to do or lead
// on. The Ad Optimizer with nothing to improve keeps Launch off and says why in words; the prompt
// builder's prompt goes straight into a studio launch as its direction notes; a logo is uploaded as a
// file on the Brand page (an SVG drawn to PNG, a hazardous one refused in words).
import { expect, test } from "@playwright/test";
import { expectNoSidewaysScroll, signUpInBrowser } from "./support/browser.ts";

const balance = async (page: import("@playwright/test").Page) =>
  (await (await page.request.get("/api/user/credits")).json()).data.balance as number;

for (const width of [390, 1400]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test("the Ad Optimizer with no finished project: Launch is off and says what to do", async ({ page }) => {
      await signUpInBrowser(page, `e2e-optimizer-${width}`);
      await page.goto("/studio?type=ad-optimizer");
      const form = page.getByTestId("workflow-form");
      await expect(form).toHaveAttribute("data-type", "ad-optimizer");
      await expect(form.getByTestId("launch")).toBeDisabled();
      await expect(form.getByTestId("launch-disabled-reason")).toHaveText(
        "Launch is off: the Ad Optimizer improves one of your finished ads, and you have none yet. Make an ad with another workflow (a Static Ad is ready in about a minute), then come back to improve it.",
      );
      await expect(form.getByTestId("cost-estimate")).toHaveText("This will use 1 credit once you have a finished ad to improve.");
      // The server's raw refusal is not what the person reads.
      await expect(page.getByText("nothing was charged")).toHaveCount(0);
      await expectNoSidewaysScroll(page);
      expect(await balance(page)).toBe(10);
    });

    test("the prompt builder's prompt goes into a studio launch as direction notes", async ({ page }) => {
      await signUpInBrowser(page, `e2e-pb-studio-${width}`);
      await page.goto("/prompt-builder");
      await page.getByTestId("pb-subject").fill("A steel water bottle on a mountain summit at dawn");
      const prompt = page.getByTestId("pb-positive");
      await expect(prompt).toContainText("steel water bottle");
      const text = (await prompt.textContent()) ?? "";
      await expectNoSidewaysScroll(page);

      await page.getByTestId("pb-use-in-studio").click();
      await expect(page).toHaveURL(/\/studio\?/);
      const form = page.getByTestId("workflow-form");
      await expect(form).toHaveAttribute("data-type", "staticad");
      await expect(page.getByTestId("prompt-restored")).toBeVisible();
      await expect(form.getByTestId("field-concept")).toHaveValue("A steel water bottle on a mountain summit at dawn");
      await expect(form.getByTestId("field-brief-direction")).toHaveValue(text.slice(0, 1000));
      await expect(form.getByTestId("field-brief-direction")).toBeVisible();
      // Nothing is spent on the way; the launch names its price, and only it charges.
      expect(await balance(page)).toBe(10);
      await expect(form.getByTestId("launch")).toHaveText("Launch Static Ad for 1 credit");
      await expectNoSidewaysScroll(page);
      await form.getByTestId("launch").click();
      await expect(page).toHaveURL(/\/studio\/jobs\//);
      expect(await balance(page)).toBe(9);
    });

    test("a logo uploaded as an SVG file becomes the brand's logo", async ({ page }) => {
      await signUpInBrowser(page, `e2e-logo-${width}`);
      expect((await page.request.post("/api/user/brands", { data: { name: "Pawsome" } })).status()).toBe(200);
      await page.goto("/brand");
      const form = page.getByTestId("brand-profile-form");
      await expect(form.getByTestId("brand-name")).toHaveValue("Pawsome");
      const file = form.getByTestId("brand-logo-file");
      await file.setInputFiles({
        name: "tracker.svg",
        mimeType: "image/svg+xml",
        buffer: Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><image href="https://evil.example/x.png"/></svg>',
        ),
      });
      await expect(form.getByTestId("brand-logo-error")).toContainText("This SVG cannot be used as a logo: it links to another file");
      await file.setInputFiles({
        name: "logo.svg",
        mimeType: "image/svg+xml",
        buffer: Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100"><rect width="200" height="100" fill="#e11d48"/></svg>',
        ),
      });
      await expect(form.getByTestId("brand-logo-uploaded")).toContainText("drawn from your SVG as a PNG");
      await expect(form.getByTestId("brand-logoUrl")).toHaveValue(/\/api\/brand-logos\/[0-9a-f-]{36}\.png$/);
      const preview = form.getByTestId("brand-logo-preview").locator("img");
      await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1024);
      const saved = (await (await page.request.get("/api/user/brand")).json()).data;
      expect(saved.logoUrl).toBe(await form.getByTestId("brand-logoUrl").inputValue());
      await expectNoSidewaysScroll(page);
    });
  });
}

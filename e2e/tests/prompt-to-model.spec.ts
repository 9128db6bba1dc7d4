// The prompt builder's prompt as a launch's picture or clip prompt, so a built prompt reaches a model. Without a provider key (as
// this e2e server runs) only "as direction notes" is offered, and the studio shows no prompt fields. An
// instance with a key lists the generation models in its studio configuration: here that answer is
// extended in the browser, and the launch the SPA sends is read, not let through (the server's handling of
// `prompts`, with faked providers, is server/test/provider-clip-jobs.test.ts).
import { expect, type Page, test } from "@playwright/test";
import { expectNoSidewaysScroll, signUpInBrowser } from "./support/browser.ts";

const SUBJECT = "A steel water bottle on a mountain summit at dawn";

async function buildPrompt(page: Page): Promise<string> {
  await page.goto("/prompt-builder");
  await page.getByTestId("pb-subject").fill(SUBJECT);
  const prompt = page.getByTestId("pb-positive");
  await expect(prompt).toContainText("steel water bottle");
  return (await prompt.textContent()) ?? "";
}

/** The studio configuration as an instance with a picture and a video service's keys answers it. */
async function withGenerationModels(page: Page) {
  await page.route(/\/trpc\/[^?]*public\.studio/, async (route) => {
    const response = await route.fetch();
    const procedures = new URL(route.request().url()).pathname.split("/trpc/")[1]!.split(",");
    const body = (await response.json()) as any[];
    const at = procedures.indexOf("public.studio");
    const models = body[at].result.data.models;
    const all = ["standard", "premium"];
    models.image = [
      { id: "generated-pictures", name: "Generated pictures", tiers: all, default: true },
      ...models.image.map((m: any) => ({ ...m, default: false })),
    ];
    models.video = [...models.video, { id: "generated-video", name: "Generated video", tiers: all, default: false }];
    await route.fulfill({ response, json: body });
  });
}

for (const width of [390, 1400]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test("without a provider key the prompt goes only into direction notes", async ({ page }) => {
      await signUpInBrowser(page, `e2e-pb-nokey-${width}`);
      await buildPrompt(page);
      await expect(page.getByTestId("pb-use-in-studio")).toBeVisible();
      await expect(page.getByTestId("pb-use-as-picture-prompt")).toHaveCount(0);
      await page.goto("/studio?type=cinematic");
      await expect(page.getByTestId("workflow-form")).toHaveAttribute("data-type", "cinematic");
      await expect(page.getByTestId("field-prompts")).toHaveCount(0);
      await expectNoSidewaysScroll(page);
    });

    test("with generation models the prompt becomes the picture prompt the launch carries", async ({ page }) => {
      await signUpInBrowser(page, `e2e-pb-key-${width}`);
      await withGenerationModels(page);
      const text = await buildPrompt(page);
      await expectNoSidewaysScroll(page);
      await page.getByTestId("pb-use-as-picture-prompt").click();
      await expect(page).toHaveURL(/\/studio\?.*picturePrompt=/);
      const form = page.getByTestId("workflow-form");
      await expect(form).toHaveAttribute("data-type", "staticad");
      await expect(page.getByTestId("prompt-restored")).toContainText("picture prompt");
      await expect(form.getByTestId("field-concept")).toHaveValue(SUBJECT);
      await expect(form.getByTestId("field-prompt-picture")).toHaveValue(text);
      // A Static Ad makes no clips: no clip prompt is offered.
      await expect(form.getByTestId("field-prompt-clip")).toHaveCount(0);
      await expectNoSidewaysScroll(page);

      // The launch the SPA sends carries the prompt and the model it feeds (read here, not sent on).
      let sent: any = null;
      await page.route(/\/trpc\/[^?]*workflow\.launch/, async (route) => {
        sent = Object.values(route.request().postDataJSON() as Record<string, unknown>)[0];
        await route.fulfill({
          status: 400,
          json: [{ error: { message: "read by the test", code: -32600, data: { code: "BAD_REQUEST" } } }],
        });
      });
      await form.getByTestId("launch").click();
      await expect.poll(() => sent).not.toBeNull();
      expect(sent.prompts).toEqual({ picture: text.trim() });
      expect(sent.models).toEqual({ image: "generated-pictures" });
      expect(sent.brief?.direction).toBeUndefined();
    });
  });
}

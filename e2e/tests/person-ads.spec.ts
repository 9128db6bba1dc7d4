// A Presenter ad shows a person: without a presenter in the media library the studio says so before
// Launch, with a link to the library, and the launch is refused without charging.
import { expect, test } from "@playwright/test";
import { signUpInBrowser } from "./support/browser.ts";

test("the studio says a Presenter ad needs a presenter photo, and where to upload it", async ({ page }) => {
  await signUpInBrowser(page, "e2e-person");
  await page.goto("/studio");
  await page.getByTestId("workflow-type-avatar").click();
  const notice = page.getByTestId("presenter-needed");
  await expect(notice).toContainText("no presenter yet");
  await expect(notice.getByRole("link", { name: /Media library/ })).toHaveAttribute("href", "/brand#brand-media");

  // A type without a person says nothing of the kind.
  await page.getByTestId("workflow-type-cinematic").click();
  await expect(notice).toHaveCount(0);

  await page.getByTestId("workflow-type-avatar").click();
  await page.getByTestId("workflow-form").getByTestId("launch").click();
  await expect(page.getByTestId("workflow-form")).toContainText("upload a photo or short clip of the presenter");
  const credits = await (await page.request.get("/api/user/credits")).json();
  expect(credits.data.balance).toBe(10);
});

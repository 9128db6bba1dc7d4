// The Assistant page: a question's answer streams in with its tool call shown, a launch waits for
// a "yes" and then happens (the balance drops by the price), the conversation is kept in the thread
// list, and a refused question is explained in place. Also on a 390 px phone.
import { mkdirSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { expectNoSidewaysScroll, signUpInBrowser } from "./support/browser.ts";

const SHOTS = "test-results/assistant";
mkdirSync(SHOTS, { recursive: true });

async function send(page: Page, message: string) {
  await page.getByTestId("assistant-input").fill(message);
  await page.getByTestId("assistant-send").click();
}

async function balance(page: Page): Promise<number> {
  const res = await page.request.get("/api/user/credits");
  return (await res.json()).data.balance as number;
}

test("asks, sees the tool call, confirms a launch, and finds the thread again", async ({ page }) => {
  await signUpInBrowser(page, "e2e-assistant");
  await page.getByRole("link", { name: "Assistant" }).first().click();
  await expect(page).toHaveURL(/\/assistant$/);

  await send(page, "How much is a cinematic ad?");
  const answers = page.getByTestId("assistant-message-assistant");
  await expect(answers.last()).toContainText("costs 1 credit; your balance is 10");
  await expect(answers.last().getByTestId("assistant-tool")).toContainText("Estimated a launch");

  await send(page, "Launch a static ad about our cold brew that is ready at six");
  await expect(answers.last()).toContainText('reply "yes"');
  await expect(answers.last().getByTestId("assistant-tool")).toContainText("Prepared a launch");
  expect(await balance(page)).toBe(10);
  await expect(page.getByTestId("assistant-thread").first()).toContainText("waiting for yes");

  await send(page, "yes");
  await expect(answers.last()).toContainText("Launched: Workflow staticad queued; 1 credit charged.");
  await expect(answers.last().getByTestId("assistant-tool")).toContainText("Launched a workflow");
  expect(await balance(page)).toBe(9);
  await page.screenshot({ path: `${SHOTS}/desktop.png`, fullPage: true });

  await page.getByTestId("assistant-new-thread").click();
  await expect(page.getByTestId("assistant-message-assistant")).toHaveCount(0);
  await page.getByTestId("assistant-thread").filter({ hasText: "How much is a cinematic ad?" }).click();
  await expect(page.getByTestId("assistant-message-user")).toHaveCount(3);
  await expect(page.getByTestId("assistant-message-assistant").last()).toContainText("Launched");
});

test("a launch waits with its price: Drop it and backing out spend nothing, only Launch for … spends", async ({ page }) => {
  await signUpInBrowser(page, "e2e-assistant-confirm");
  expect((await page.request.post("/api/user/brand", { data: { brandName: "Pawsome", industry: "pet food" } })).status()).toBe(200);
  await page.goto("/assistant");
  // The first questions and the examples are the account's own, not another business's.
  await expect(page.getByRole("button", { name: "How is Pawsome doing?" })).toBeVisible();
  await expect(page.getByTestId("assistant-input")).toHaveAttribute("placeholder", /Launch a static ad about Pawsome/);
  await page.getByRole("button", { name: "What can you do?" }).click();
  const answers = page.getByTestId("assistant-message-assistant");
  await expect(answers.last()).toContainText('"plan a 4-week campaign for Pawsome with 20 credits"');
  await expect(answers.last()).not.toContainText("cold brew");

  await send(page, "Launch a static ad about grain-free kibble");
  const waiting = page.getByTestId("assistant-pending-launch");
  await expect(waiting).toContainText("Static Ad (standard) in 9:16 for 1 credit");
  await expect(waiting.getByTestId("assistant-confirm-launch")).toHaveText("Launch for 1 credit");
  expect(await balance(page)).toBe(10);
  await waiting.getByTestId("assistant-drop-launch").click();
  await expect(answers.last()).toContainText("Dropped: I did not launch");
  await expect(waiting).toHaveCount(0);
  expect(await balance(page)).toBe(10);

  await send(page, "Launch a static ad about grain-free kibble");
  await expect(waiting).toBeVisible();
  expect(await balance(page)).toBe(10);
  await waiting.getByTestId("assistant-confirm-launch").click();
  await expect(answers.last()).toContainText("Launched: Workflow staticad queued; 1 credit charged.");
  await expect(waiting).toHaveCount(0);
  expect(await balance(page)).toBe(9);
  await page.setViewportSize({ width: 1400, height: 900 });
  await expectNoSidewaysScroll(page);
});

test("explains a question that is too long, in place", async ({ page }) => {
  await signUpInBrowser(page, "e2e-assistant-long");
  await page.goto("/assistant");
  await page.getByTestId("assistant-input").fill("x".repeat(2001));
  await expect(page.getByText("Shorten your question to 2000 characters")).toBeVisible();
  await expect(page.getByTestId("assistant-send")).toBeDisabled();
});

test.describe("on a 390 px phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the assistant fits and answers", async ({ page }) => {
    await signUpInBrowser(page, "e2e-assistant-phone");
    await page.goto("/assistant");
    await send(page, "Plan a 4-week campaign");
    const answer = page.getByTestId("assistant-message-assistant").last();
    await expect(answer).toContainText("Week 1");
    await expect(answer.getByTestId("assistant-tool")).toContainText("Planned a campaign");
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/phone.png`, fullPage: true });
  });
});

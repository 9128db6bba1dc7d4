// Push notifications in Chromium under the service's own Content Security Policy: the push service
// worker registers from the page's origin, and a push message delivered to it (through the DevTools
// protocol, standing in for the browser vendor's push service, which this network cannot reach) is shown
// as a notification. "Send a test" waits until a browser is subscribed, and says why.
import { expect, test } from "@playwright/test";
import { signUpInBrowser } from "./support/browser.ts";

test("the push service worker registers under the CSP and shows the message a push delivers", async ({ page, context, baseURL }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await context.grantPermissions(["notifications"], { origin: baseURL! });
  await signUpInBrowser(page, "e2e-push");
  await page.goto("/settings");
  const settings = page.getByTestId("push-settings");
  await expect(settings).toBeVisible();
  // Nobody is subscribed yet: the test button waits, and says what to do first.
  await expect(settings.getByTestId("push-test")).toBeDisabled();
  await expect(settings.getByTestId("push-test-hint")).toHaveText(
    "Turn notifications on in a browser first; the test goes to every subscribed browser.",
  );

  const cdp = await context.newCDPSession(page);
  const registered = new Promise<string>((resolve) => {
    cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
      const push = registrations.find((r: { scopeURL: string; isDeleted: boolean }) => r.scopeURL.startsWith(baseURL!) && !r.isDeleted);
      if (push) resolve(push.registrationId);
    });
  });
  await cdp.send("ServiceWorker.enable");
  const state = await page.evaluate(async () => {
    await navigator.serviceWorker.register("/push-sw.js");
    const ready = await navigator.serviceWorker.ready;
    return ready.active?.state ?? "none";
  });
  expect(["activating", "activated"]).toContain(state);
  const registrationId = await registered;

  await cdp.send("ServiceWorker.deliverPushMessage", {
    origin: new URL(baseURL!).origin,
    registrationId,
    data: JSON.stringify({ title: "Your ad is ready", body: "Brewly cold brew: 4 formats", tag: "job-1", url: "/projects" }),
  });
  await expect
    .poll(async () =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        return (await registration.getNotifications()).map((n) => `${n.title}: ${n.body}`);
      }),
    )
    .toEqual(["Your ad is ready: Brewly cold brew: 4 formats"]);
  expect(violations).toEqual([]);
});

// The admin console's Account flags tab (refunds and chargebacks of spent credits) on a 390 px phone: reached from the console's
// tabs, it states plainly that nothing is open, switches between open, resolved and all, and fits the width.
// A paid Stripe event that matches no account (never dropped: the payment was taken) appears there as a flag on no account, and the
// admin resolves it with a note.
import { createHmac, randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { expectNoSidewaysScroll, signInAsAdmin } from "./support/browser.ts";

test("an administrator opens Account flags on a phone: no open flags, filters, no sideways scrolling", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsAdmin(page);
  await page.goto("/admin/overview");
  await page.getByTestId("admin-nav").getByRole("link", { name: "Account flags" }).click();
  await expect(page).toHaveURL(/\/admin\/flags$/);
  await expect(page.getByRole("heading", { name: "Account flags" })).toBeVisible();
  await expect(page.getByTestId("flags-empty")).toHaveText(/No open flags/);
  await expect(page.getByTestId("flags-total")).toHaveText(/0 flags · 0 open in all/);
  await page.getByTestId("flags-filter-all").click();
  await expect(page.getByTestId("flags-filter-all")).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("flags-empty")).toHaveText("No flags here.");
  await page.waitForLoadState("networkidle");
  await expectNoSidewaysScroll(page);
});

test("a paid Stripe event that matches no account is an open flag the admin reads and resolves", async ({ page, request }) => {
  const eventId = `evt_e2e_${randomUUID()}`;
  const payload = JSON.stringify({
    id: eventId,
    object: "event",
    type: "checkout.session.completed",
    data: {
      object: {
        id: `cs_test_${randomUUID()}`,
        object: "checkout.session",
        payment_status: "paid",
        payment_intent: `pi_${randomUUID()}`,
        amount_total: 1299,
        currency: "usd",
        client_reference_id: "someone-we-never-met",
        customer_details: { email: "stranger@example.org" },
      },
    },
  });
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac("sha256", "whsec_e2e_only").update(`${t}.${payload}`).digest("hex");
  const answer = await request.post("/api/webhook/stripe", {
    headers: { "content-type": "application/json", "stripe-signature": `t=${t},v1=${v1}` },
    data: payload,
  });
  expect(answer.status()).toBe(200);
  expect((await answer.json()).data).toMatchObject({ outcome: "unmatched" });

  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsAdmin(page);
  await page.goto("/admin/flags");
  const flag = page.getByTestId("flag-item").filter({ hasText: eventId });
  await expect(flag).toHaveAttribute("data-status", "open");
  await expect(flag).toContainText("Payment that granted nothing");
  await expect(flag.getByTestId("flag-no-account")).toHaveText("No account matches this payment");
  await expect(flag.getByTestId("flag-message")).toContainText("stranger@example.org");
  await flag.getByTestId("flag-resolve").click();
  await flag.getByTestId("flag-note").fill("Refunded at Stripe: the customer had no account");
  await flag.getByTestId("flag-resolve-submit").click();
  await expect(page.getByTestId("flag-item").filter({ hasText: eventId })).toHaveCount(0);
  await page.getByTestId("flags-filter-resolved").click();
  await expect(page.getByTestId("flag-item").filter({ hasText: eventId }).getByTestId("flag-resolution")).toContainText(
    "Refunded at Stripe: the customer had no account",
  );
  await page.waitForLoadState("networkidle");
  await expectNoSidewaysScroll(page);
});

// Account settings beyond the SPEC: changing the sign-in e-mail, and the outbound webhook's test delivery.
import { z } from "zod";
import { Email, EmailAddress } from "./common.ts";
import { WebhookSettings } from "./results.ts";

/** POST /user/email: the new address, confirmed with the account's current password. */
export const ChangeEmailInput = z.object({
  email: Email,
  password: z
    .string({ error: "Enter your current password to change your e-mail address" })
    .min(1, { error: "Enter your current password to change your e-mail address" }),
});
export type ChangeEmailInput = z.infer<typeof ChangeEmailInput>;
export const EmailChanged = z.object({ email: EmailAddress });

/** One delivery attempt record of the account's webhook (a job event or a test delivery). */
export const WebhookDelivery = WebhookSettings.shape.recentDeliveries.element.meta({ title: "WebhookDelivery" });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

/** The event kind of a test delivery, so a receiver can tell it from a job's events. */
export const WEBHOOK_TEST_EVENT = "webhook.test";

// Web Push (RFC 8030 / 8291 / 8292): a browser's subscription, and what the service sends to it.
import { z } from "zod";
import { IsoDateTime } from "./common.ts";

/** base64url without padding, as PushSubscription.toJSON() gives the keys. */
const base64url = (what: string, bytes: number) =>
  z
    .string({ error: `${what} must be base64url text` })
    .trim()
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, { error: `${what} must be base64url (letters, digits, - and _)` })
    .refine((value) => Math.floor((value.replace(/=+$/, "").length * 3) / 4) === bytes, {
      error: `${what} must encode ${bytes} bytes`,
    });

export const PushSubscriptionJson = z
  .object({
    endpoint: z
      .string({ error: "subscription.endpoint must be the push service's https address" })
      .trim()
      .max(2048, { error: "subscription.endpoint must be at most 2048 characters" })
      .refine(
        (value) => {
          try {
            return new URL(value).protocol === "https:";
          } catch {
            return false;
          }
        },
        { error: "subscription.endpoint must be an https:// address" },
      ),
    expirationTime: z.number().nullable().optional(),
    keys: z.object(
      {
        p256dh: base64url("subscription.keys.p256dh", 65),
        auth: base64url("subscription.keys.auth", 16),
      },
      { error: "subscription.keys must hold p256dh and auth" },
    ),
  })
  .meta({ title: "PushSubscriptionJson" });

export const PushSubscribeInput = z.object({
  subscription: PushSubscriptionJson,
});

export const PushUnsubscribeInput = z.object({
  endpoint: z.string().trim().max(2048).optional().describe("one subscription; absent: every subscription of the account"),
});

export const PushSubscribeResult = z
  .object({ subscribed: z.literal(true), endpoint: z.string(), vapidPublicKey: z.string(), createdAt: IsoDateTime })
  .meta({ title: "PushSubscribeResult" });

export const PushUnsubscribeResult = z
  .object({ unsubscribed: z.literal(true), removed: z.number().int() })
  .meta({ title: "PushUnsubscribeResult" });

export const PushSendInput = z.object({
  userId: z.string().trim().min(1).optional().describe("an admin may send to any account; others only to themselves"),
  title: z
    .string({ error: "title must be text" })
    .trim()
    .min(1, { error: "Give the notification a title" })
    .max(120, { error: "title must be at most 120 characters" }),
  body: z.string().trim().max(500, { error: "body must be at most 500 characters" }).default(""),
  url: z.string().trim().max(2048).optional().describe("where a click opens, a path of the SPA or an https address"),
});

export const PushSendResult = z
  .object({ sent: z.number().int(), failed: z.number().int(), pruned: z.number().int() })
  .meta({ title: "PushSendResult" });
export type PushSendResult = z.infer<typeof PushSendResult>;

export const PushStatus = z.object({ vapidPublicKey: z.string(), subscriptions: z.number().int() }).meta({ title: "PushStatus" });

/** The JSON payload a service worker receives. */
export interface PushMessage {
  title: string;
  body: string;
  url?: string;
  tag?: string;
}

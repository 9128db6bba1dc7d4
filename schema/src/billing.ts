// Money: credit packs, plan checkout, the sandbox checkout, provider webhooks and invoices (SPEC 4.3, 4.11;
// CONTRACT "Credit packs", "Sandbox checkout", "Webhook signatures").
import { z } from "zod";
import { IsoDateTime } from "./common.ts";

export const PACK_IDS = ["pack_10", "pack_25", "pack_50", "pack_100"] as const;
export const PackId = z.enum(PACK_IDS, { error: `packId must be one of ${PACK_IDS.join(", ")}` }).meta({ title: "PackId" });
export type PackId = z.infer<typeof PackId>;

/** Plans that can be bought (free and trial are where an account starts, not products). */
export const PAID_PLAN_IDS = ["subscription_starter", "subscription_pro", "subscription_agency", "subscription_enterprise"] as const;
export const PaidPlanId = z
  .enum(PAID_PLAN_IDS, { error: `planId must be one of ${PAID_PLAN_IDS.join(", ")}` })
  .meta({ title: "PaidPlanId" });
export type PaidPlanId = z.infer<typeof PaidPlanId>;

export const BILLING_INTERVALS = ["monthly", "yearly"] as const;
export const BillingInterval = z
  .enum(BILLING_INTERVALS, { error: "interval must be monthly or yearly" })
  .meta({ title: "BillingInterval" });
export type BillingInterval = z.infer<typeof BillingInterval>;

/** Where checkouts go on this instance: the provider, the built-in sandbox, or nowhere. */
export const CheckoutMode = z.enum(["stripe", "sandbox", "unavailable"]).meta({ title: "CheckoutMode" });
export type CheckoutMode = z.infer<typeof CheckoutMode>;

export const PurchaseInput = z.object({ packId: PackId });
export type PurchaseInput = z.infer<typeof PurchaseInput>;

export const PlanCheckoutInput = z.object({ planId: PaidPlanId, interval: BillingInterval.default("monthly") });
export type PlanCheckoutInput = z.infer<typeof PlanCheckoutInput>;

/** A payment session: open `url` to pay (the provider's page, or the built-in sandbox page). */
export const CheckoutSession = z
  .object({
    url: z.string(),
    orderId: z.string(),
    provider: z.enum(["stripe", "sandbox"]),
    sandbox: z.boolean().describe("true: the built-in sandbox checkout; no real payment is taken"),
  })
  .meta({ title: "CheckoutSession" });
export type CheckoutSession = z.infer<typeof CheckoutSession>;

export const ORDER_STATUSES = ["pending", "paid", "refunded", "failed"] as const;
export const OrderStatus = z.enum(ORDER_STATUSES).meta({ title: "OrderStatus" });

export const Order = z
  .object({
    id: z.string(),
    provider: z.string(),
    kind: z.enum(["pack", "plan"]),
    packId: z.string().nullable(),
    planId: z.string().nullable(),
    interval: BillingInterval.nullable(),
    /** Credits the order grants: the pack's, or the plan's monthly allowance. */
    credits: z.number().int(),
    amount: z.number(),
    amountCents: z.number().int(),
    currency: z.string(),
    status: OrderStatus,
    description: z.string(),
    createdAt: IsoDateTime,
    paidAt: IsoDateTime.nullable(),
  })
  .meta({ title: "Order" });
export type Order = z.infer<typeof Order>;

export const OrderIdInput = z.object({ orderId: z.string({ error: "orderId is required" }).min(1, { error: "orderId is required" }) });

export const SandboxConfirmation = z
  .object({ order: Order, balance: z.number().int(), planId: z.string() })
  .meta({ title: "SandboxConfirmation" });
export type SandboxConfirmation = z.infer<typeof SandboxConfirmation>;

export const InvoiceSummary = z
  .object({
    id: z.string(),
    /** INV-000001: sequential, no gaps. */
    number: z.string(),
    orderId: z.string(),
    description: z.string(),
    currency: z.string(),
    total: z.number(),
    totalCents: z.number().int(),
    issuedAt: IsoDateTime,
  })
  .meta({ title: "InvoiceSummary" });
export type InvoiceSummary = z.infer<typeof InvoiceSummary>;

export const InvoicePdfInput = z.object({
  invoiceId: z
    .string()
    .trim()
    .min(1, { error: "invoiceId must name an invoice (its id or number, e.g. INV-000001)" })
    .optional()
    .describe("The invoice's id or number; the latest invoice when absent"),
});

/**
 * A provider's webhook delivery. Over REST the body is taken as sent (its bytes, base64-encoded, are
 * `payload`) and the signature header is `signature`; other transports pass both fields themselves.
 */
export const ProviderWebhookInput = z.object({
  payload: z.string().describe("The delivery's body, base64-encoded (REST: the raw body itself)"),
  signature: z.string().optional().describe("The provider's signature header"),
});
export type ProviderWebhookInput = z.infer<typeof ProviderWebhookInput>;

export const WebhookReceipt = z
  .object({
    received: z.literal(true),
    /** true: this event id was handled before; nothing changed. */
    duplicate: z.boolean(),
    /** fulfilled, refunded, ignored, unmatched (a confirmed payment that granted nothing; flagged for an admin) */
    outcome: z.string(),
  })
  .meta({ title: "WebhookReceipt" });
export type WebhookReceipt = z.infer<typeof WebhookReceipt>;

export const MetaChallengeInput = z.object({
  "hub.mode": z.string().optional(),
  "hub.verify_token": z.string().optional(),
  "hub.challenge": z.string().optional(),
});

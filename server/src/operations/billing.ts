// billing.*: buying credit packs and plans (the provider's checkout or the built-in sandbox), and the
// account's invoices.
import {
  CheckoutSession,
  CreditPack,
  InvoicePdfInput,
  InvoiceSummary,
  Order,
  OrderIdInput,
  PlanCheckoutInput,
  PurchaseInput,
  SandboxConfirmation,
} from "@adgen/schema";
import { z } from "zod";
import { checkoutPlan, purchasePack } from "../modules/billing/checkout.ts";
import { renderInvoicePdf } from "../modules/billing/invoice-pdf.ts";
import { findInvoice, invoiceNumber, listInvoices } from "../modules/billing/invoices.ts";
import { listPacks } from "../modules/billing/packs.ts";
import { confirmSandboxOrder, getSandboxOrder } from "../modules/billing/sandbox.ts";
import { defineOperation, type FileResult, NoInput } from "./operation.ts";
import { signedIn } from "./signed-in.ts";

const user = { access: "user" } as const;
const PDF = { none: "a PDF file: bytes travel over REST only" };

export const billingOperations = {
  packs: defineOperation({
    ...user,
    summary: "The credit packs on sale, with their prices",
    kind: "query",
    input: NoInput,
    output: z.array(CreditPack),
    rest: { method: "GET", path: "/user/credits/purchase", tag: "Billing" },
    handler: () => listPacks(),
  }),
  purchase: defineOperation({
    ...user,
    summary: "Start buying a credit pack: answers the payment page's URL (the provider's, or the built-in sandbox)",
    kind: "mutation",
    input: PurchaseInput,
    output: CheckoutSession,
    rest: {
      method: "POST",
      path: "/user/credits/purchase",
      tag: "Billing",
      errors: { 402: "Payment failed at the payment provider", 503: "Payments are not set up on this server" },
    },
    handler: (ctx, input) => purchasePack(ctx.services, signedIn(ctx), input),
  }),
  checkout: defineOperation({
    ...user,
    summary: "Start buying a plan, monthly or yearly: answers the checkout page's URL",
    kind: "mutation",
    input: PlanCheckoutInput,
    output: CheckoutSession,
    rest: {
      method: "POST",
      path: "/checkout/stripe",
      tag: "Billing",
      errors: { 402: "Payment failed at the payment provider", 503: "Payments are not set up on this server" },
    },
    handler: (ctx, input) => checkoutPlan(ctx.services, signedIn(ctx), input),
  }),
  sandboxOrder: defineOperation({
    ...user,
    summary: "A pending order as the sandbox checkout page shows it (only while the sandbox is on)",
    kind: "query",
    input: OrderIdInput,
    output: Order,
    rest: { method: "GET", path: "/checkout/sandbox/{orderId}", tag: "Billing", errors: { 404: "Order not found, or the sandbox is off" } },
    handler: (ctx, input) => getSandboxOrder(ctx.services, signedIn(ctx).id, input.orderId),
  }),
  sandboxConfirm: defineOperation({
    ...user,
    summary: "Pay a pending order in the sandbox: fulfils it through the same path as a provider's webhook",
    kind: "mutation",
    input: OrderIdInput,
    output: SandboxConfirmation,
    rest: {
      method: "POST",
      path: "/checkout/sandbox/{orderId}",
      tag: "Billing",
      // The order id is the path's; there is no body.
      from: "query",
      errors: { 404: "Order not found, or the sandbox is off", 409: "The order is already paid" },
    },
    handler: (ctx, input) => confirmSandboxOrder(ctx.services, signedIn(ctx).id, input.orderId),
  }),
  invoices: defineOperation({
    ...user,
    summary: "The account's invoices, newest first",
    kind: "query",
    input: NoInput,
    output: z.array(InvoiceSummary),
    rest: { method: "GET", path: "/invoice/generate", tag: "Billing" },
    handler: (ctx) => listInvoices(ctx.services, signedIn(ctx).id),
  }),
  invoicePdf: defineOperation({
    ...user,
    summary: "The PDF of the invoice named by `invoiceId` (id or number), or of the latest one",
    kind: "download",
    input: InvoicePdfInput,
    output: null,
    rest: {
      method: "POST",
      path: "/invoice/generate",
      tag: "Billing",
      produces: ["application/pdf"],
      errors: {
        400: "Nothing to invoice yet (no invoiceId and no paid order), or invalid input",
        404: "The invoice named by invoiceId is not one of the account's",
      },
    },
    trpc: PDF,
    graphql: PDF,
    handler: async (ctx, input): Promise<FileResult> => {
      const invoice = await findInvoice(ctx.services, signedIn(ctx).id, input.invoiceId);
      const pdf = await renderInvoicePdf(invoice);
      return {
        kind: "file",
        filename: `${invoiceNumber(invoice.number)}.pdf`,
        contentType: "application/pdf",
        body: new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new Uint8Array(pdf));
            controller.close();
          },
        }),
        length: pdf.length,
      };
    },
  }),
};

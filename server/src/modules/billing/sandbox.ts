// The built-in sandbox checkout (CONTRACT "Sandbox checkout"): when no payment provider is configured,
// a checkout URL leads to a page of this app, clearly marked as a sandbox; its confirm button pays the
// order through applyPaymentEvent, the very path a provider's webhook takes. Off in production unless
// PAYMENTS_SANDBOX=1 (and never when STRIPE_SECRET_KEY is set: then payments are real).
import type { Order, SandboxConfirmation } from "@adgen/schema";
import type { Services } from "../../request-context.ts";
import { AppError } from "../../errors.ts";
import { applyPaymentEvent } from "./apply-payment-event.ts";
import { checkoutMode } from "./checkout-mode.ts";
import { ownOrder, toOrder } from "./orders.ts";

function requireSandbox(services: Services): void {
  if (checkoutMode(services.config) !== "sandbox") {
    throw new AppError("NOT_FOUND", "The sandbox checkout is off on this server: payments go through the payment provider");
  }
}

export async function getSandboxOrder(services: Services, userId: string, orderId: string): Promise<Order> {
  requireSandbox(services);
  return toOrder(await ownOrder(services, userId, orderId));
}

export async function confirmSandboxOrder(services: Services, userId: string, orderId: string): Promise<SandboxConfirmation> {
  requireSandbox(services);
  const order = await ownOrder(services, userId, orderId);
  if (order.provider !== "sandbox") throw new AppError("BAD_REQUEST", "This order is paid through the payment provider, not the sandbox");
  if (order.status !== "pending") throw new AppError("CONFLICT", `This order is already ${order.status}`);
  await applyPaymentEvent(services, {
    provider: "sandbox",
    eventId: `sandbox:${order.id}`,
    type: "sandbox.checkout.completed",
    action: "completed",
    orderId: order.id,
    userId: order.userId,
    packId: order.packId,
    planId: order.planId,
    interval: order.interval,
    paymentId: `sandbox:${order.id}`,
    sessionId: null,
    amountCents: Number(order.amountCents),
    currency: order.currency,
  });
  const [paid, user] = await Promise.all([
    services.prisma.order.findUniqueOrThrow({ where: { id: order.id } }),
    services.prisma.user.findUniqueOrThrow({ where: { id: order.userId }, select: { creditsBalance: true, currentPlanId: true } }),
  ]);
  return { order: toOrder(paid), balance: user.creditsBalance, planId: user.currentPlanId };
}

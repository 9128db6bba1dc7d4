// Starting a purchase: a pending order, then a payment session for it: Stripe's checkout page when
// STRIPE_SECRET_KEY is set, else the built-in sandbox page on PUBLIC_URL (CONTRACT "Sandbox checkout").
// Nothing is granted here: credits and plans come only from a confirmed payment (apply-payment-event.ts).
import type { CheckoutSession, PlanCheckoutInput, PurchaseInput } from "@adgen/schema";
import type { User } from "@adgen/prisma";
import type { Services } from "../../request-context.ts";
import { AppError } from "../../errors.ts";
import { checkoutMode } from "./checkout-mode.ts";
import { packProduct, planProduct, type Product } from "./products.ts";
import { createStripeCheckout } from "./stripe-checkout.ts";

export function purchasePack(services: Services, user: User, input: PurchaseInput): Promise<CheckoutSession> {
  const product = packProduct(input.packId);
  if (!product) throw new AppError("BAD_REQUEST", "packId must be one of pack_10, pack_25, pack_50, pack_100");
  return startCheckout(services, user, product);
}

export function checkoutPlan(services: Services, user: User, input: PlanCheckoutInput): Promise<CheckoutSession> {
  const product = planProduct(input.planId, input.interval);
  if (!product) throw new AppError("BAD_REQUEST", "planId must be a paid plan");
  return startCheckout(services, user, product);
}

export function sandboxCheckoutUrl(publicUrl: string, orderId: string): string {
  return `${publicUrl}/billing/sandbox/${encodeURIComponent(orderId)}`;
}

async function startCheckout(services: Services, user: User, product: Product): Promise<CheckoutSession> {
  const { config, prisma, logger } = services;
  const mode = checkoutMode(config);
  if (mode === "unavailable") {
    throw new AppError(
      "UNAVAILABLE",
      "Payments are not set up on this server: the operator must set STRIPE_SECRET_KEY (the sandbox checkout is off in production).",
    );
  }
  const provider = mode === "stripe" ? "stripe" : "sandbox";
  const order = await prisma.order.create({
    data: {
      userId: user.id,
      provider,
      kind: product.kind,
      packId: product.packId,
      planId: product.planId,
      interval: product.interval,
      credits: product.credits,
      amountCents: product.amountCents,
      currency: product.currency,
    },
  });
  if (mode === "sandbox") {
    return { url: sandboxCheckoutUrl(config.publicUrl, order.id), orderId: order.id, provider: "sandbox", sandbox: true };
  }
  try {
    const session = await createStripeCheckout({
      secretKey: config.payments.stripeSecretKey!,
      publicUrl: config.publicUrl,
      orderId: order.id,
      userId: user.id,
      email: user.email,
      product,
    });
    await prisma.order.update({ where: { id: order.id }, data: { providerSessionId: session.id } });
    return { url: session.url, orderId: order.id, provider: "stripe", sandbox: false };
  } catch (error) {
    await prisma.order.update({ where: { id: order.id }, data: { status: "failed" } });
    logger.warn(
      { orderId: order.id, error: (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message },
      "checkout failed at the payment provider",
    );
    throw error;
  }
}

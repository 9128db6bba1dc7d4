// A checkout session at Stripe, through the official package: a one-off payment for a pack, a
// subscription for a plan. The order id and what it buys travel as metadata, so the webhook that confirms
// the payment (and a later refund or dispute) leads back to the order.
import type Stripe from "stripe";
import { AppError } from "../../errors.ts";
import type { Product } from "./products.ts";

export interface StripeCheckoutRequest {
  secretKey: string;
  publicUrl: string;
  orderId: string;
  userId: string;
  email: string;
  product: Product;
}

export async function createStripeCheckout(request: StripeCheckoutRequest): Promise<{ id: string; url: string }> {
  const { product, orderId, userId } = request;
  // Retries would double the wait for an answer the user is looking at; the user can press again.
  // Loaded by the first checkout, not at start-up (most instances never take a card payment).
  const { default: StripeClient } = await import("stripe");
  const stripe = new StripeClient(request.secretKey, { maxNetworkRetries: 0, timeout: 20_000 });
  const metadata: Record<string, string> = {
    orderId,
    userId,
    ...(product.packId ? { packId: product.packId } : {}),
    ...(product.planId ? { planId: product.planId, interval: product.interval ?? "monthly" } : {}),
  };
  const back = `${request.publicUrl}/billing?order=${encodeURIComponent(orderId)}`;
  const plan = product.kind === "plan";
  let session: Stripe.Checkout.Session;
  try {
    session = await stripe.checkout.sessions.create({
      mode: plan ? "subscription" : "payment",
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: product.currency.toLowerCase(),
            unit_amount: product.amountCents,
            product_data: { name: product.description },
            ...(plan ? { recurring: { interval: product.interval === "yearly" ? "year" : "month" } } : {}),
          },
        },
      ],
      success_url: `${back}&checkout=success`,
      cancel_url: `${back}&checkout=cancelled`,
      client_reference_id: orderId,
      customer_email: request.email,
      metadata,
      ...(plan ? { subscription_data: { metadata } } : { payment_intent_data: { metadata } }),
    });
  } catch (error) {
    // A card's own refusal is the user's to read; anything else is the provider's or this server's problem
    // (e.g. a wrong key), whose details belong in the log, not in front of the user.
    const reason =
      error instanceof StripeClient.errors.StripeCardError
        ? error.message
        : error instanceof StripeClient.errors.StripeConnectionError
          ? "the payment provider could not be reached"
          : "the payment provider reported an error";
    const failure = new AppError(
      "PAYMENT_REQUIRED",
      `Payment failed: the checkout could not be started (${reason}). Nothing was charged; try again.`,
    );
    failure.cause = error;
    throw failure;
  }
  if (!session.url) {
    throw new AppError(
      "PAYMENT_REQUIRED",
      "Payment failed: the payment provider answered without a checkout page. Nothing was charged; try again.",
    );
  }
  return { id: session.id, url: session.url };
}

// Where a checkout goes on this instance (CONTRACT "Sandbox checkout"): the provider when STRIPE_SECRET_KEY
// is set; else the built-in sandbox, which is off in production unless PAYMENTS_SANDBOX=1.
import type { CheckoutMode } from "@adgen/schema";
import type { Config } from "../../config/env.ts";

export function checkoutMode(config: Pick<Config, "payments" | "paymentsSandbox">): CheckoutMode {
  if (config.payments.stripeSecretKey) return "stripe";
  return config.paymentsSandbox ? "sandbox" : "unavailable";
}

// Money amounts: whole cents (the currency's smallest unit), never negative, at most MAX_AMOUNT_CENTS.
// Every amount a payment provider states is held to this before anything is stored (docs/domains/billing.md, "Amounts").

/**
 * The largest amount accepted: 10^12 cents (ten billion in the currency's main unit). Far above any real
 * payment, far below Number.MAX_SAFE_INTEGER (about 9·10^15), so an amount is an exact JS number; the
 * database keeps 64-bit cents (orders.amount_cents, invoices' *_cents) and sums stay exact in bigint.
 */
export const MAX_AMOUNT_CENTS = 1_000_000_000_000;

export const AMOUNT_CENTS_RULE = `a whole number of cents from 0 to ${MAX_AMOUNT_CENTS}`;

/** Whether `value` is an amount this service stores: a whole, non-negative number of cents within range. */
export const isAmountCents = (value: unknown): value is number =>
  typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= MAX_AMOUNT_CENTS;

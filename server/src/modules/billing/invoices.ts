// Invoices: one per paid order, numbered sequentially with no gaps. The number is taken under a
// transaction-scoped lock in the payment's own transaction, so a rolled-back payment leaves no hole and
// two payments at once never share a number. Seller, buyer and lines are frozen as issued.
import type { Invoice as InvoiceRow, Order as OrderRow, Prisma } from "@adgen/prisma";
import type { InvoiceSummary } from "@adgen/schema";
import type { Config } from "../../config/env.ts";
import type { Services, Tx } from "../../request-context.ts";
import { AppError, Errors } from "../../errors.ts";
import { describeOrder } from "./products.ts";

/** Namespace of the invoice-number lock (a two-key advisory lock). */
const INVOICE_NUMBER_LOCK = 0x1ab0;

export interface InvoiceParty {
  name: string;
  lines: string[];
}

export interface InvoiceLine {
  description: string;
  quantity: number;
  unitCents: number;
  amountCents: number;
}

export const invoiceNumber = (n: number) => `INV-${String(n).padStart(6, "0")}`;

export function sellerOf(config: Pick<Config, "payments" | "publicUrl">): InvoiceParty {
  const [name = "AdGen", ...lines] = config.payments.invoiceSeller
    .split("|")
    .map((part) => part.trim())
    .filter(Boolean);
  return { name, lines: [...lines, config.publicUrl] };
}

/** Prices include tax at `ratePercent`: the tax line is the part of the total that is tax. */
export function taxSplit(totalCents: number, ratePercent: number): { subtotalCents: number; taxCents: number } {
  const taxCents = ratePercent > 0 ? Math.round((totalCents * ratePercent) / (100 + ratePercent)) : 0;
  return { subtotalCents: totalCents - taxCents, taxCents };
}

export async function issueInvoice(tx: Tx, config: Config, order: OrderRow, buyer: { id: string; email: string }): Promise<InvoiceRow> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${INVOICE_NUMBER_LOCK}::int, 0)`;
  const last = await tx.invoice.aggregate({ _max: { number: true } });
  // 64-bit in the database, bounded by MAX_AMOUNT_CENTS on the way in: an exact number here.
  const totalCents = Number(order.amountCents);
  const lines: InvoiceLine[] = [{ description: describeOrder(order), quantity: 1, unitCents: totalCents, amountCents: totalCents }];
  const rate = config.payments.invoiceTaxPercent;
  const { subtotalCents, taxCents } = taxSplit(totalCents, rate);
  return tx.invoice.create({
    data: {
      number: (last._max.number ?? 0) + 1,
      orderId: order.id,
      userId: buyer.id,
      currency: order.currency,
      seller: sellerOf(config) as unknown as Prisma.InputJsonValue,
      buyer: { name: buyer.email, lines: [buyer.email], userId: buyer.id } as Prisma.InputJsonValue,
      lines: lines as unknown as Prisma.InputJsonValue,
      subtotalCents,
      taxRatePercent: rate,
      taxCents,
      totalCents,
    },
  });
}

export function toInvoiceSummary(row: InvoiceRow): InvoiceSummary {
  const lines = row.lines as unknown as InvoiceLine[];
  return {
    id: row.id,
    number: invoiceNumber(row.number),
    orderId: row.orderId,
    description: lines.map((line) => line.description).join("; "),
    currency: row.currency,
    total: Number(row.totalCents) / 100,
    totalCents: Number(row.totalCents),
    issuedAt: row.issuedAt.toISOString(),
  };
}

export async function listInvoices(services: Services, userId: string): Promise<InvoiceSummary[]> {
  const rows = await services.prisma.invoice.findMany({ where: { userId }, orderBy: { number: "desc" } });
  return rows.map(toInvoiceSummary);
}

/** The account's invoice named by id or number (INV-000042 or 42), or its latest; 404 otherwise. */
export async function findInvoice(services: Services, userId: string, invoiceId: string | undefined): Promise<InvoiceRow> {
  const { prisma } = services;
  if (!invoiceId) {
    const latest = await prisma.invoice.findFirst({ where: { userId }, orderBy: { number: "desc" } });
    // Nothing is missing that the caller named: there is nothing to invoice yet, the caller's error (400).
    if (!latest)
      throw new AppError("BAD_REQUEST", "Nothing to invoice yet: an invoice is issued for every paid order, and this account has none");
    return latest;
  }
  const numbered = /^(?:INV-)?0*(\d{1,9})$/i.exec(invoiceId);
  const invoice = await prisma.invoice.findFirst({
    where: { userId, OR: [{ id: invoiceId }, ...(numbered ? [{ number: Number(numbered[1]) }] : [])] },
  });
  if (!invoice) throw Errors.notFound("Invoice");
  return invoice;
}

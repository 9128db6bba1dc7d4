// An invoice as a PDF (pdfkit): seller, buyer, number and date, the lines, the tax line and the total, in
// the order's currency.
import type { Invoice as InvoiceRow } from "@adgen/prisma";
import { type InvoiceLine, type InvoiceParty, invoiceNumber } from "./invoices.ts";

export function formatAmount(cents: number, currency: string): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency, currencyDisplay: "code" })
    .format(cents / 100)
    .replace(/\u00a0/g, " ");
}

export async function renderInvoicePdf(invoice: InvoiceRow): Promise<Buffer> {
  // pdfkit is loaded by the first invoice, not at start-up.
  const { default: PDFDocument } = await import("pdfkit");
  const seller = invoice.seller as unknown as InvoiceParty;
  const buyer = invoice.buyer as unknown as InvoiceParty;
  const lines = invoice.lines as unknown as InvoiceLine[];
  const money = (cents: number | bigint) => formatAmount(Number(cents), invoice.currency);
  const doc = new PDFDocument({ size: "A4", margin: 56, info: { Title: `Invoice ${invoiceNumber(invoice.number)}` } });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  doc.font("Helvetica-Bold").fontSize(22).text("Invoice", { align: "left" });
  doc.moveDown(0.3).font("Helvetica").fontSize(11);
  doc.text(`Invoice number: ${invoiceNumber(invoice.number)}`);
  doc.text(`Date: ${invoice.issuedAt.toISOString().slice(0, 10)}`);
  doc.text(`Currency: ${invoice.currency}`);
  doc.moveDown();

  const top = doc.y;
  const BUYER_WIDTH = 219;
  doc.font("Helvetica-Bold").text("Seller", 56, top);
  doc.font("Helvetica").text([seller.name, ...seller.lines].join("\n"), 56, doc.y);
  const sellerBottom = doc.y;
  doc.font("Helvetica-Bold").text("Bill to", 320, top);
  // Each buyer line on one line: a long e-mail address is set smaller rather than broken at a hyphen.
  doc.font("Helvetica");
  for (const line of [buyer.name, ...buyer.lines.filter((l) => l !== buyer.name)]) {
    const size = Math.max(6, Math.min(11, (11 * BUYER_WIDTH) / Math.max(1, doc.fontSize(11).widthOfString(line))));
    doc.fontSize(size).text(line, 320, doc.y, { width: BUYER_WIDTH, lineBreak: false });
  }
  doc.fontSize(11);
  doc.y = Math.max(sellerBottom, doc.y) + 20;

  const row = (cells: [string, string, string, string], bold = false) => {
    const y = doc.y;
    doc.font(bold ? "Helvetica-Bold" : "Helvetica");
    doc.text(cells[0], 56, y, { width: 250 });
    const end = doc.y;
    doc.text(cells[1], 316, y, { width: 40, align: "right" });
    doc.text(cells[2], 366, y, { width: 80, align: "right" });
    doc.text(cells[3], 456, y, { width: 84, align: "right" });
    doc.y = Math.max(end, doc.y) + 6;
  };
  row(["Description", "Qty", "Unit price", "Amount"], true);
  for (const line of lines) row([line.description, String(line.quantity), money(line.unitCents), money(line.amountCents)]);
  doc.moveDown(0.5);
  row(["Subtotal", "", "", money(invoice.subtotalCents)]);
  row([`Tax (${invoice.taxRatePercent}%, included in the price)`, "", "", money(invoice.taxCents)]);
  row(["Total", "", "", money(invoice.totalCents)], true);
  doc.moveDown();
  doc.font("Helvetica").fontSize(9).text(`Paid in full. Order ${invoice.orderId}.`, 56, doc.y);
  doc.end();
  return done;
}

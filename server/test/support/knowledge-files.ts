// Real documents for the knowledge-base tests, made the way users' tools make them: PDF (pdfkit), DOCX
// (docx), XLSX (exceljs), CSV and TXT; and an upload helper for POST /api/user/brand/knowledge/files.
import { Document, Packer, Paragraph } from "docx";
import ExcelJS from "exceljs";
import PDFDocument from "pdfkit";
import type { Account } from "./accounts.ts";
import type { TestApp } from "./harness.ts";

function pdfBytes(draw: (doc: PDFKit.PDFDocument) => void): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: "A4" });
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    draw(doc);
    doc.end();
  });
}

/** A PDF with a text layer: one paragraph per entry, the second on a new page. */
export const makePdf = (paragraphs: string[]) =>
  pdfBytes((doc) =>
    paragraphs.forEach((text, i) => {
      if (i === 1) doc.addPage();
      doc.fontSize(12).text(text);
    }),
  );

/** A "scanned" PDF: pages that are only pictures (filled shapes), no text layer. */
export const makeScannedPdf = () =>
  pdfBytes((doc) => {
    doc.rect(50, 50, 400, 300).fill("#888888");
  });

export const makeDocx = (paragraphs: string[]) =>
  Packer.toBuffer(new Document({ sections: [{ children: paragraphs.map((text) => new Paragraph(text)) }] }));

/** A workbook with one sheet per entry; each sheet's first row names the columns. */
export async function makeXlsx(sheets: Record<string, (string | number)[][]>): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) workbook.addWorksheet(name).addRows(rows);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export async function uploadKnowledge(
  app: TestApp,
  account: Account,
  bytes: Uint8Array,
  filename: string,
  type = "application/octet-stream",
) {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), filename);
  const res = await fetch(`${app.url}/api/user/brand/knowledge/files`, {
    method: "POST",
    headers: { cookie: `session=${account.jwt}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as { success: boolean; data?: any; error?: string } };
}

/** Polls GET …/knowledge/{id} until the item leaves `extracting`. */
export async function settled(account: Account, id: string, timeoutMs = 30_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const item = (await account.client.get(`/user/brand/knowledge/${id}`)).body.data;
    if (item && item.status !== "extracting") return item;
    if (Date.now() > deadline) throw new Error(`knowledge item ${id} still extracting after ${timeoutMs} ms: ${JSON.stringify(item)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

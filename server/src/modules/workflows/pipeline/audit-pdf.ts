// The local audit as a PDF: the overall score and grade, then each criterion with its score bar,
// findings and recommendation. DejaVu Sans (embedded, so any page text prints) with Helvetica as the
// fallback when the font files are missing.
import { createWriteStream, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import type { AuditReport } from "@adgen/schema";
import { locateFont } from "../../render/ffmpeg.ts";

const MARGIN = 50;
const INK = "#1d2330";
const MUTED = "#5c6475";

function fonts(): { regular: string; bold: string } {
  try {
    const bold = locateFont();
    const regular = join(dirname(bold), "DejaVuSans.ttf");
    if (existsSync(regular)) return { regular, bold };
  } catch {
    // fall back to the standard fonts
  }
  return { regular: "Helvetica", bold: "Helvetica-Bold" };
}

function scoreColor(score: number): string {
  if (score >= 75) return "#1f9d55";
  if (score >= 50) return "#d69e2e";
  return "#d64545";
}

/** Writes the report to `outPath` and resolves when the file is complete. */
export async function writeAuditPdf(report: AuditReport, business: string | null, outPath: string): Promise<void> {
  const { regular, bold } = fonts();
  // pdfkit is loaded by the first report, not at start-up.
  const { default: PDFDocument } = await import("pdfkit");
  const doc = new PDFDocument({
    size: "A4",
    margin: MARGIN,
    info: { Title: `Ad readiness audit: ${report.url}`, Author: "AdGen", Subject: "Local business ad readiness audit" },
  });
  const done = new Promise<void>((resolve, reject) => {
    const out = createWriteStream(outPath);
    out.on("finish", () => resolve());
    out.on("error", reject);
    doc.on("error", reject);
    doc.pipe(out);
  });
  const width = doc.page.width - MARGIN * 2;

  doc.font(bold).fontSize(22).fillColor(INK).text("Ad readiness audit");
  doc.moveDown(0.2);
  doc
    .font(regular)
    .fontSize(11)
    .fillColor(MUTED)
    .text(business ? `${business} — ${report.url}` : report.url);
  doc.text(`Audited ${report.auditedAt.slice(0, 10)}`);
  doc.moveDown(1);

  // The overall score in a badge.
  const top = doc.y;
  doc.roundedRect(MARGIN, top, width, 70, 8).fill("#f3f5f9");
  doc
    .font(bold)
    .fontSize(30)
    .fillColor(scoreColor(report.overallScore))
    .text(`${report.overallScore}/100`, MARGIN + 20, top + 18, { lineBreak: false });
  doc
    .font(bold)
    .fontSize(14)
    .fillColor(INK)
    .text(`Overall score: ${report.overallScore}/100 (grade ${report.grade})`, MARGIN + 170, top + 18, { width: width - 190 });
  doc
    .font(regular)
    .fontSize(10)
    .fillColor(MUTED)
    .text(report.pageLoaded ? "Weighted across the five criteria below." : "The page could not be loaded.", MARGIN + 170, top + 40, {
      width: width - 190,
    });
  doc.x = MARGIN;
  doc.y = top + 90;

  for (const c of report.criteria) {
    if (doc.y > doc.page.height - 180) doc.addPage();
    doc.font(bold).fontSize(14).fillColor(INK).text(`${c.name}: ${c.score}/100`, MARGIN, doc.y, { width });
    doc.font(regular).fontSize(9).fillColor(MUTED).text(`Weight ${c.weight}%`);
    const barY = doc.y + 4;
    doc.rect(MARGIN, barY, width, 8).fill("#e4e7ee");
    if (c.score > 0) doc.rect(MARGIN, barY, (width * c.score) / 100, 8).fill(scoreColor(c.score));
    doc.x = MARGIN;
    doc.y = barY + 16;
    doc.font(regular).fontSize(10).fillColor(INK);
    for (const finding of c.findings) doc.text(`•  ${finding}`, MARGIN + 8, doc.y, { width: width - 8 });
    doc.moveDown(0.3);
    doc
      .font(bold)
      .fontSize(10)
      .fillColor(INK)
      .text("Recommendation: ", MARGIN, doc.y, { width, continued: true })
      .font(regular)
      .text(c.recommendation);
    doc.moveDown(1.2);
  }

  doc.end();
  await done;
}

// A PDF written by hand, byte by byte, for the knowledge tests that need what no PDF tool writes: a stream
// that inflates to gigabytes, 20,000 pages, pages that take pdf.js long to read.

/** A PDF of one page per entry, each with one content stream (given as its dictionary extras and bytes). */
export function handMadePdf(pages: { extra?: string; data: Buffer }[]): Buffer {
  const parts: Buffer[] = [Buffer.from("%PDF-1.4\n")];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  const object = (n: number, body: Buffer | string) => {
    offsets[n] = length;
    const bytes = Buffer.concat([Buffer.from(`${n} 0 obj\n`), Buffer.from(body), Buffer.from("\nendobj\n")]);
    parts.push(bytes);
    length += bytes.length;
  };
  const kids = pages.map((_, i) => `${4 + 2 * i} 0 R`).join(" ");
  object(1, "<< /Type /Catalog /Pages 2 0 R >>");
  object(2, `<< /Type /Pages /Count ${pages.length} /Kids [${kids}] >>`);
  object(3, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  pages.forEach((page, i) => {
    const n = 4 + 2 * i;
    object(n, `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${n + 1} 0 R >>`);
    const head = Buffer.from(`<< /Length ${page.data.length}${page.extra ?? ""} >>\nstream\n`);
    object(n + 1, Buffer.concat([head, page.data, Buffer.from("\nendstream")]));
  });
  const xref = [`xref\n0 ${offsets.length}\n0000000000 65535 f \n`];
  for (let n = 1; n < offsets.length; n++) xref.push(`${String(offsets[n]).padStart(10, "0")} 00000 n \n`);
  xref.push(`trailer\n<< /Size ${offsets.length} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`);
  return Buffer.concat([...parts, Buffer.from(xref.join(""))]);
}

/** A PDF of `count` pages of one line each: "Fact number n." */
export const factPages = (count: number) =>
  handMadePdf(Array.from({ length: count }, (_, i) => ({ data: Buffer.from(`BT /F1 12 Tf 72 720 Td (Fact number ${i + 1}.) Tj ET`) })));

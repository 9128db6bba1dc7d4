// Documents made to take the server down, uploaded by an ordinary account: a PDF of 20,000 pages, a PDF whose
// one content stream inflates to 256 MB of text, a workbook of 1.2 million rows, a CSV that is one 16 MB
// line, a DOCX whose document.xml unpacks to 256 MB (and one whose ZIP understates it). Each is built
// here, small on disk. While each is extracted /api/health keeps answering (nine answers in ten within
// 200 ms, none near a freeze); the item ends `error` in words the user can act on, or `ready` with the
// part a cap allows and a warning saying so; its extraction ran once; and a start-up sweep does not run
// again an extraction that stopped twice.
import { crc32, deflateRawSync, deflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resendStaleExtractions } from "../src/modules/knowledge/extraction-job.ts";
import { extractionSandbox } from "../src/modules/knowledge/extraction-sandbox.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";
import { factPages, handMadePdf } from "./support/hand-made-pdf.ts";
import { uploadKnowledge } from "./support/knowledge-files.ts";

const MB = 1024 * 1024;
const HEALTH_MS = 200;
/**
 * No single answer may take this long. The extraction's event-loop freeze this test guards against held
 * every answer for 27 to 207 s; one answer delayed past HEALTH_MS by a GC pause, or by the test file that
 * shares this 2-core machine in CI, is not that, so HEALTH_MS holds for nine answers in ten.
 */
const FROZEN_MS = 1000;
const ninetiethPercentile = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.9) - 1] ?? 0;

let app: TestApp;
let attacker: Account;
const timeLimit = extractionSandbox.timeoutMs;
beforeAll(async () => {
  // The legitimate reads get twice the service's own limit (30 s): what this file proves is which pages and rows
  // are read and that the server stays responsive, not how fast a loaded 2-core machine reads them (the 500 pages
  // of the 20,000-page PDF took 15 s alone and over 30 s beside another test file).
  extractionSandbox.timeoutMs = 60_000;
  app = await startTestApp({ WORKERS: "1" });
  attacker = await signUp(app, "knowledge-bomber");
});
afterAll(async () => {
  extractionSandbox.timeoutMs = timeLimit;
  await app?.close();
});

/** A ZIP of deflated entries; `declare` overrides the unpacked size its directory states (a forged file). */
function zip(entries: { name: string; data: Buffer; declare?: number }[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const { name, data, declare } of entries) {
    const packed = deflateRawSync(data, { level: 9 });
    const fields = (header: Buffer, at: number) => {
      header.writeUInt16LE(20, at);
      header.writeUInt16LE(8, at + 4);
      header.writeUInt32LE(crc32(data), at + 10);
      header.writeUInt32LE(packed.length, at + 14);
      header.writeUInt32LE(declare ?? data.length, at + 18);
      header.writeUInt16LE(Buffer.byteLength(name), at + 22);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    fields(local, 4);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    fields(entry, 6);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, Buffer.from(name), packed);
    central.push(entry, Buffer.from(name));
    offset += 30 + Buffer.byteLength(name) + packed.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const docx = (documentXml: Buffer, declare?: number) =>
  zip([
    { name: "[Content_Types].xml", data: Buffer.from('<?xml version="1.0"?><Types/>') },
    { name: "word/document.xml", data: documentXml, declare },
  ]);

/** A workbook of one sheet, "Readings": a header row and `rows` rows of one number each. */
function xlsx(rows: number): Buffer {
  const ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
  const rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
  const body = [`<?xml version="1.0"?><worksheet ${ns}><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>reading</t></is></c></row>`];
  for (let r = 2; r <= rows + 1; r++) body.push(`<row r="${r}"><c r="A${r}"><v>${r}</v></c></row>`);
  body.push("</sheetData></worksheet>");
  return zip([
    { name: "[Content_Types].xml", data: Buffer.from('<?xml version="1.0"?><Types/>') },
    {
      name: "xl/workbook.xml",
      data: Buffer.from(
        `<?xml version="1.0"?><workbook ${ns} xmlns:r="${rel}"><sheets><sheet name="Readings" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      ),
    },
    {
      name: "xl/_rels/workbook.xml.rels",
      data: Buffer.from(
        `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
      ),
    },
    { name: "xl/sharedStrings.xml", data: Buffer.from(`<?xml version="1.0"?><sst ${ns} count="0" uniqueCount="0"/>`) },
    { name: "xl/worksheets/sheet1.xml", data: Buffer.from(body.join("")) },
  ]);
}

/**
 * Uploads `bytes` and, until the item leaves `extracting`, asks /api/health how it is: nine answers in
 * ten within HEALTH_MS, and none near a freeze (FROZEN_MS). Answers the settled item (with its extraction
 * count) and the health timings.
 */
async function uploadUnderWatch(bytes: Buffer, filename: string) {
  // Building a bomb blocks this process (the server's too) for seconds. Let the timers that fell due meanwhile
  // run first: else the upload may take a keep-alive socket the server closes in the same instant (ECONNRESET).
  await new Promise((resolve) => setTimeout(resolve, 20));
  const up = await uploadKnowledge(app, attacker, bytes, filename);
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  const id = up.body.data.id as string;
  const timings: number[] = [];
  const deadline = Date.now() + 75_000;
  for (;;) {
    const started = performance.now();
    const health = await fetch(`${app.url}/api/health`);
    const took = performance.now() - started;
    expect(health.status).toBe(200);
    expect(took, `/api/health took ${Math.round(took)} ms while ${filename} was extracted`).toBeLessThan(FROZEN_MS);
    timings.push(took);
    // The status from the database: asking the API twenty times a second would meet its rate limit.
    const row = await app.services.prisma.knowledgeItem.findUniqueOrThrow({ where: { id } });
    if (row.status !== "extracting") {
      const item = (await attacker.client.get(`/user/brand/knowledge/${id}`)).body.data;
      await attacker.client.delete(`/user/brand/knowledge/${id}`);
      const p90 = ninetiethPercentile(timings);
      expect(p90, `/api/health's 90th percentile was ${Math.round(p90)} ms while ${filename} was extracted`).toBeLessThan(HEALTH_MS);
      return { item, attempts: row.extractionAttempts, timings };
    }
    if (Date.now() > deadline) throw new Error(`${filename} still extracting after 75 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("documents made to exhaust the server", { timeout: 90_000 }, () => {
  it("a PDF of 20,000 one-line pages: the first 500 pages are read, with a warning", async () => {
    const { item, attempts, timings } = await uploadUnderWatch(factPages(20_000), "pages.pdf");
    expect(timings.length).toBeGreaterThan(2);
    expect(item.status).toBe("ready");
    expect(item.warning).toBe("Only the first 500 of 20,000 pages are read; split the PDF to use the rest");
    expect(item.extractedText).toContain("Fact number 500.");
    expect(item.extractedText).not.toContain("Fact number 501.");
    expect(attempts).toBe(1);
  });

  it("a PDF whose content stream inflates to 256 MB: refused before pdf.js holds it, the server unharmed", async () => {
    const text = Buffer.concat([
      Buffer.from("BT /F1 12 Tf 72 720 Td\n"),
      Buffer.alloc(256 * MB, "(Brewly) Tj 0 -1 Td\n"),
      Buffer.from("ET"),
    ]);
    const data = deflateSync(text, { level: 9 });
    const bomb = handMadePdf([{ extra: " /Filter /FlateDecode", data }]);
    expect(bomb.length).toBeLessThan(2 * MB);
    const { item, attempts } = await uploadUnderWatch(bomb, "inflating.pdf");
    expect(item).toMatchObject({
      status: "error",
      error: "This PDF unpacks to more than 32 MB in one part; split it into smaller files and upload those",
    });
    expect(attempts).toBe(1);
  });

  it("a workbook of 1.2 million rows: the first 50,000 rows are read, with a warning", async () => {
    const { item, attempts } = await uploadUnderWatch(xlsx(1_200_000), "rows.xlsx");
    expect(item.status).toBe("ready");
    expect(item.warning).toBe("Only the first 50,000 rows are read; split the workbook to use the rest");
    expect(item.extractedText).toMatch(/^Readings\nreading: 2\nreading: 3\n/);
    // The header and 49,999 readings: rows 1 to 50,000 of the sheet.
    expect(item.extractedText).toMatch(/\nreading: 50000$/);
    expect(attempts).toBe(1);
  });

  it("a CSV that is one 16 MB line: error, it is not read whole", async () => {
    const { item, attempts } = await uploadUnderWatch(Buffer.alloc(16 * MB, "brewly,"), "one-line.csv");
    expect(item).toMatchObject({
      status: "error",
      error: "A line of this CSV file is longer than 1 MB (a CSV holds one row per line); check the file, or upload the text as a TXT file",
    });
    expect(attempts).toBe(1);
  });

  it("a DOCX whose document.xml unpacks to 256 MB is refused before it is inflated; one that understates it too", async () => {
    const zeros = Buffer.alloc(256 * MB);
    const declared = await uploadUnderWatch(docx(zeros), "huge.docx");
    expect(declared.item).toMatchObject({
      status: "error",
      error: "This Word document unpacks to more than 64 MB in one part (word/document.xml); split it into smaller files and upload those",
    });
    // The central directory says 1 KB: inflating it stops one byte past that.
    const forged = await uploadUnderWatch(docx(zeros, 1024), "forged.docx");
    expect(forged.item).toMatchObject({
      status: "error",
      error: "The Word document could not be read (it is damaged or not a real DOCX); save it again as .docx and upload that",
    });
    expect([declared.attempts, forged.attempts]).toEqual([1, 1]);
  });
});

describe("start-up after extractions that stopped", () => {
  it("does not queue again an item whose extraction already started twice: it ends error", async () => {
    const up = await uploadKnowledge(app, attacker, Buffer.from("Brewly keeps 212 nurses awake."), "notes.txt");
    const id = up.body.data.id as string;
    const { prisma } = app.services;
    await expect
      .poll(async () => (await prisma.knowledgeItem.findUniqueOrThrow({ where: { id } })).status, { timeout: 15_000 })
      .toBe("ready");
    // As if the process had died twice while extracting it, the last time an hour ago.
    await prisma.$executeRaw`UPDATE knowledge_items SET status = 'extracting', extracted_text = NULL, extraction_attempts = 2,
      updated_at = now() - interval '1 hour' WHERE id = ${id}`;
    await resendStaleExtractions(app.services);
    const item = (await attacker.client.get(`/user/brand/knowledge/${id}`)).body.data;
    expect(item).toMatchObject({
      status: "error",
      error: "Extraction stopped twice before it finished; split the file or upload its text instead",
    });
    // Nor does a message of it left on the queue (pg-boss retrying the job of a process that died).
    await prisma.$executeRaw`UPDATE knowledge_items SET status = 'extracting' WHERE id = ${id}`;
    await app.services.queue.send("knowledge", { itemId: id });
    await expect
      .poll(async () => (await prisma.knowledgeItem.findUniqueOrThrow({ where: { id } })).status, { timeout: 15_000 })
      .toBe("error");
    expect((await prisma.knowledgeItem.findUniqueOrThrow({ where: { id } })).extractionAttempts).toBe(2);
  });

  it("queues again an item whose extraction started once, and counts the second start", async () => {
    const up = await uploadKnowledge(app, attacker, Buffer.from("Cold brew, twenty hours."), "again.txt");
    const id = up.body.data.id as string;
    const { prisma } = app.services;
    await expect
      .poll(async () => (await prisma.knowledgeItem.findUniqueOrThrow({ where: { id } })).status, { timeout: 15_000 })
      .toBe("ready");
    await prisma.$executeRaw`UPDATE knowledge_items SET status = 'extracting', extracted_text = NULL,
      updated_at = now() - interval '1 hour' WHERE id = ${id}`;
    await resendStaleExtractions(app.services);
    await expect
      .poll(async () => (await prisma.knowledgeItem.findUniqueOrThrow({ where: { id } })).status, { timeout: 15_000 })
      .toBe("ready");
    expect((await prisma.knowledgeItem.findUniqueOrThrow({ where: { id } })).extractionAttempts).toBe(2);
  });
});

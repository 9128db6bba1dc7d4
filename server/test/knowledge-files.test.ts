// The knowledge base's documents: PDF, DOCX, XLSX, CSV and TXT made here with real tools, uploaded as
// multipart, judged by content and name, extracted on the queue (extracting → ready | error), read back
// with their text, deleted with their file and index entries; at most 9 files and 50 MB each; and only
// their owner can see them. An extraction queued while no worker runs is done when one starts.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resendStaleExtractions } from "../src/modules/knowledge/extraction-job.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { graphql, trpcClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";
import { makeDocx, makePdf, makeScannedPdf, makeXlsx, settled, uploadKnowledge } from "./support/knowledge-files.ts";

let app: TestApp;
let owner: Account;
let stranger: Account;
beforeAll(async () => {
  // No workers yet: the first test checks that extraction waits on the queue for one.
  app = await startTestApp({ WORKERS: "0" });
  owner = await signUp(app, "knowledge-owner");
  stranger = await signUp(app, "knowledge-stranger");
});
afterAll(() => app?.close());

const storedFiles = (account: Account) => {
  const dir = join(app.config.dataDir, "media", "knowledge", account.id);
  return existsSync(dir) ? readdirSync(dir) : [];
};
const list = async (account: Account) => (await account.client.get("/user/brand/knowledge")).body.data as any[];
async function clear(account: Account) {
  for (const item of await list(account)) expect((await account.client.delete(`/user/brand/knowledge/${item.id}`)).status).toBe(200);
}

describe("extraction on the queue", () => {
  it("stays extracting while no worker runs and is extracted when one starts (the message survives)", async () => {
    const up = await uploadKnowledge(app, owner, Buffer.from("Brewly keeps 212 nurses awake.\n"), "notes.txt", "text/plain");
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body.data).toMatchObject({ type: "file", name: "notes.txt", status: "extracting", mimeType: "text/plain", size: 31 });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await owner.client.get(`/user/brand/knowledge/${up.body.data.id}`)).body.data.status).toBe("extracting");
    // A worker process starts (as after a restart): it takes the queued extraction from the database.
    await app.services.startWorkers(1);
    const item = await settled(owner, up.body.data.id);
    expect(item).toMatchObject({ status: "ready", extractedText: "Brewly keeps 212 nurses awake.", error: null, warning: null });
    await clear(owner);
  });

  it("queues again an extraction whose message was lost (the sweep finds items extracting for too long)", async () => {
    const up = await uploadKnowledge(app, owner, Buffer.from("Lost and found."), "lost.txt");
    const id = up.body.data.id;
    await settled(owner, id);
    // As if the process died between saving the item and queueing its extraction, an hour ago.
    await app.services.prisma
      .$executeRaw`UPDATE knowledge_items SET status = 'extracting', extracted_text = NULL, updated_at = now() - interval '1 hour' WHERE id = ${id}`;
    expect((await owner.client.get(`/user/brand/knowledge/${id}`)).body.data.status).toBe("extracting");
    await resendStaleExtractions(app.services);
    expect(await settled(owner, id)).toMatchObject({ status: "ready", extractedText: "Lost and found." });
    await clear(owner);
  });
});

describe("each file type, extracted", () => {
  it("PDF: the text of every page", async () => {
    const pdf = await makePdf(["Page one says the Brewly can holds 212 mg of caffeine.", "Page two: brewed for 20 hours in Oslo."]);
    const up = await uploadKnowledge(app, owner, pdf, "facts.pdf", "application/pdf");
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body.data.mimeType).toBe("application/pdf");
    const item = await settled(owner, up.body.data.id);
    expect(item.status).toBe("ready");
    expect(item.extractedText).toContain("212 mg of caffeine");
    expect(item.extractedText).toContain("brewed for 20 hours in Oslo");
  });

  it("a scanned PDF with no text layer ends ready, with a warning that it holds no text", async () => {
    const up = await uploadKnowledge(app, owner, await makeScannedPdf(), "scan.pdf");
    const item = await settled(owner, up.body.data.id);
    expect(item).toMatchObject({ status: "ready", extractedText: "" });
    expect(item.warning).toMatch(/holds no text/);
  });

  it("DOCX: its paragraphs", async () => {
    const docx = await makeDocx(["Quarterly brief", "Brewly won the Nordic Coffee Award in 2024."]);
    const up = await uploadKnowledge(app, owner, docx, "brief.docx");
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const item = await settled(owner, up.body.data.id);
    expect(item.status).toBe("ready");
    expect(item.extractedText).toContain("Quarterly brief");
    expect(item.extractedText).toContain("Brewly won the Nordic Coffee Award in 2024.");
  });

  it("XLSX: every sheet, each row labelled by its header", async () => {
    const xlsx = await makeXlsx({
      Prices: [
        ["Product", "Price"],
        ["Cold brew can", 3.5],
      ],
      Stores: [
        ["City", "Shops"],
        ["Bergen", 12],
      ],
    });
    const up = await uploadKnowledge(app, owner, xlsx, "sheet.xlsx");
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const item = await settled(owner, up.body.data.id);
    expect(item.extractedText).toContain("Prices");
    expect(item.extractedText).toContain("Product: Cold brew can; Price: 3.5");
    expect(item.extractedText).toContain("Stores");
    expect(item.extractedText).toContain("City: Bergen; Shops: 12");
  });

  it("CSV: rows labelled by the header, quoted commas kept", async () => {
    const csv = 'flavour,claim\nVanilla,"Smooth, never bitter"\nMocha,Rated 4.9 stars\n';
    const up = await uploadKnowledge(app, owner, Buffer.from(csv), "flavours.csv", "text/csv");
    const item = await settled(owner, up.body.data.id);
    expect(item.extractedText).toBe("flavour: Vanilla; claim: Smooth, never bitter\nflavour: Mocha; claim: Rated 4.9 stars");
  });

  it("TXT: the encoding is detected (UTF-8 with a BOM, UTF-8, Windows-1252)", async () => {
    await clear(owner);
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("Crème brûlée flavour.", "utf8")]);
    const utf8 = Buffer.from("Zürich café, 5 € a can.", "utf8");
    const latin = Buffer.from([...Buffer.from("Caf", "latin1"), 0xe9, ...Buffer.from(" au lait ", "latin1"), 0x80, 0x32]); // "Café au lait €2" in Windows-1252
    const texts = [];
    for (const [bytes, name] of [
      [bom, "bom.txt"],
      [utf8, "utf8.txt"],
      [latin, "latin.txt"],
    ] as const) {
      const up = await uploadKnowledge(app, owner, bytes, name);
      expect(up.status, JSON.stringify(up.body)).toBe(200);
      texts.push((await settled(owner, up.body.data.id)).extractedText);
    }
    expect(texts).toEqual(["Crème brûlée flavour.", "Zürich café, 5 € a can.", "Café au lait €2"]);
  });

  it("a damaged document ends error, with a reason the user can act on", async () => {
    // A ZIP that names a Word part but is cut short.
    const docx = await makeDocx(["Never read"]);
    const broken = docx.subarray(0, Math.floor(docx.length / 2));
    const up = await uploadKnowledge(app, owner, Buffer.concat([broken, Buffer.from("word/document.xml")]), "broken.docx");
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const item = await settled(owner, up.body.data.id);
    expect(item.status).toBe("error");
    expect(item.error).toMatch(/could not be read.*upload/i);
    await clear(owner);
  });
});

describe("sniffing: content and name must agree", () => {
  it.each([
    [
      "an .exe renamed .pdf",
      Buffer.concat([Buffer.from("MZ\x90\x00\x03\x00\x00\x00", "latin1"), Buffer.alloc(200)]),
      "setup.pdf",
      /not a PDF, DOCX, XLSX, CSV or TXT/,
    ],
    ["a PNG named .txt", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), "photo.txt", /not a PDF/],
    ["a text file named .pdf", Buffer.from("just words"), "fake.pdf", /named as a PDF but its content is plain text/],
    ["an unsupported name", Buffer.from("just words"), "notes.rtf", /must end in .pdf, .docx, .xlsx, .csv or .txt/],
    ["an empty file", Buffer.alloc(0), "empty.txt", /is empty/],
  ])("refuses %s with 400 and stores nothing", async (_what, bytes, name, message) => {
    const res = await uploadKnowledge(app, owner, bytes, name);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
    expect(await list(owner)).toHaveLength(0);
    expect(storedFiles(owner)).toHaveLength(0);
  });

  it("refuses a PDF renamed .docx", async () => {
    const res = await uploadKnowledge(app, owner, await makePdf(["Hello"]), "report.docx");
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/named as a Word document \(DOCX\) but its content is a PDF/);
  });
});

describe("limits", () => {
  it("takes 9 files; the 10th answers 400 and stores nothing", async () => {
    await clear(owner);
    for (let i = 1; i <= 9; i++) {
      expect((await uploadKnowledge(app, owner, Buffer.from(`Fact number ${i}.`), `fact-${i}.txt`)).status).toBe(200);
    }
    const tenth = await uploadKnowledge(app, owner, Buffer.from("One too many."), "fact-10.txt");
    expect(tenth.status).toBe(400);
    expect(tenth.body.error).toMatch(/already holds 9 files, the most it can; delete one/);
    expect(await list(owner)).toHaveLength(9);
    expect(storedFiles(owner)).toHaveLength(9);
    // Another account's quota is its own.
    expect((await uploadKnowledge(app, stranger, Buffer.from("Mine."), "mine.txt")).status).toBe(200);
    await clear(owner);
    await clear(stranger);
  });

  it("refuses 50 MB + 1 byte while it streams (413) and stores nothing; 50 MB is the limit", async () => {
    const big = Buffer.alloc(50 * 1024 * 1024 + 1, 0x61);
    const res = await uploadKnowledge(app, owner, big, "huge.txt");
    expect([400, 413]).toContain(res.status);
    expect(res.body.error).toMatch(/larger than 50 MB/);
    expect(await list(owner)).toHaveLength(0);
    expect(storedFiles(owner)).toHaveLength(0);
  }, 60_000);
});

describe("get, list and delete", () => {
  it("deletes the item, its stored file and its index entries", async () => {
    const up = await uploadKnowledge(app, owner, Buffer.from("Brewly ships from Tromsø."), "ship.txt");
    const id = up.body.data.id;
    await settled(owner, id);
    const passages = () => app.services.prisma.knowledgePassage.count({ where: { itemId: id } });
    expect(await passages()).toBe(1);
    expect(storedFiles(owner)).toHaveLength(1);
    const listed = await list(owner);
    expect(listed.map((i) => i.id)).toEqual([id]);
    expect(listed[0]).not.toHaveProperty("extractedText");

    expect((await owner.client.delete(`/user/brand/knowledge/${id}`)).body.data).toEqual({ id, deleted: true });
    expect(await passages()).toBe(0);
    expect(storedFiles(owner)).toHaveLength(0);
    expect((await owner.client.get(`/user/brand/knowledge/${id}`)).status).toBe(404);
  });

  it("answers another account's item with 404 on REST, tRPC and GraphQL, and leaves it alone", async () => {
    const up = await uploadKnowledge(app, owner, Buffer.from("Secret recipe: 7 beans."), "secret.txt");
    const id = up.body.data.id;
    expect((await stranger.client.get(`/user/brand/knowledge/${id}`)).status).toBe(404);
    expect((await stranger.client.delete(`/user/brand/knowledge/${id}`)).status).toBe(404);
    expect(await list(stranger)).toEqual([]);
    const trpc = trpcClient(app.url, stranger.jwt);
    await expect(trpc.brand.knowledgeItem.query({ id })).rejects.toMatchObject({ data: { code: "NOT_FOUND" } });
    await expect(trpc.brand.deleteKnowledge.mutate({ id })).rejects.toMatchObject({ data: { code: "NOT_FOUND" } });
    const gql = await graphql(app.url, `mutation($id: String!) { brandDeleteKnowledge(id: $id) { deleted } }`, { id }, stranger.jwt);
    expect(gql.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const read = await graphql(app.url, `query($id: String!) { brandKnowledgeItem(id: $id) { id } }`, { id }, stranger.jwt);
    expect(read.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    // The owner still has it, text and all.
    expect((await settled(owner, id)).extractedText).toBe("Secret recipe: 7 beans.");
    const own = await graphql(app.url, `query($id: String!) { brandKnowledgeItem(id: $id) { name extractedText } }`, { id }, owner.jwt);
    expect(own.body.data.brandKnowledgeItem).toEqual({ name: "secret.txt", extractedText: "Secret recipe: 7 beans." });
  });
});

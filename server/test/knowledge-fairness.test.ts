// Extraction is shared fairly between accounts: one account's nine slow PDFs, queued first, hold another
// account's one-line TXT for one PDF's time at most (it was held 274 s when the lane was first come,
// first served), and each waiting item says how many files are read before it. Two lanes claiming at
// once never take two items of one account.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { extractionSandbox } from "../src/modules/knowledge/extraction-sandbox.ts";
import { claimNextExtraction } from "../src/modules/knowledge/extraction-turns.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { factPages } from "./support/hand-made-pdf.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";
import { uploadKnowledge } from "./support/knowledge-files.ts";
import { waitFor } from "./support/wait-for.ts";

const timeLimit = extractionSandbox.timeoutMs;
let app: TestApp;
beforeAll(async () => {
  // A slow PDF here is 30,000 pages: pdf.js takes about 5 s to open it on a quiet 2-core machine (longer on
  // a busy one), so with a 2 s limit each of the nine holds the lane 2 s and ends `error`, and the file proves
  // the order without reading 270,000 pages. The limit counts from the child's start-up, so the one-line TXT
  // (read in milliseconds once its child is up) fits in it whatever the machine's load.
  extractionSandbox.timeoutMs = 2_000;
  // No lane yet: the claims below are this file's own. Then one lane, as on an instance of its own: the
  // worst case for sharing.
  app = await startTestApp({ WORKERS: "0" });
});
afterAll(async () => {
  extractionSandbox.timeoutMs = timeLimit;
  await app?.close();
});

const list = async (account: Account) => (await account.client.get("/user/brand/knowledge")).body.data as any[];
const row = (id: string) => app.services.prisma.knowledgeItem.findUniqueOrThrow({ where: { id } });

describe("claims", () => {
  it("two lanes claiming at once take one item per account, the account that waited longest first", async () => {
    const { prisma } = app.services;
    const busy = await signUp(app, "claims-busy");
    const quiet = await signUp(app, "claims-quiet");
    // Items made straight in the table, as if queued while no lane ran (no message: no worker takes them).
    const make = (userId: string, name: string, minutesAgo: number) =>
      prisma.knowledgeItem.create({
        data: {
          userId,
          type: "file",
          name,
          mimeType: "text/plain",
          fileKey: `knowledge/${userId}/${name}`,
          createdAt: new Date(Date.now() - minutesAgo * 60_000),
        },
      });
    await make(busy.id, "b1.txt", 30);
    await make(busy.id, "b2.txt", 20);
    await make(quiet.id, "q1.txt", 10);
    const claims = await Promise.all([1, 2, 3].map(() => claimNextExtraction(prisma)));
    // The oldest item first, then the other account's, and none of the busy account's second meanwhile.
    expect(claims.map((claim) => claim?.name ?? "none").sort()).toEqual(["b1.txt", "none", "q1.txt"]);
    expect(await claimNextExtraction(prisma)).toBeNull();
    await prisma.knowledgeItem.deleteMany({ where: { userId: { in: [busy.id, quiet.id] } } });
  });
});

describe("extraction between accounts", { timeout: 120_000 }, () => {
  it("another account's TXT is ready within 35 s while one account's nine slow PDFs are extracted", async () => {
    const trial = await signUp(app, "nine-slow-pdfs");
    const other = await signUp(app, "one-line-txt");
    const slow = factPages(30_000);
    const pdfIds: string[] = [];
    for (let n = 1; n <= 9; n++) {
      const up = await uploadKnowledge(app, trial, slow, `slow-${n}.pdf`);
      expect(up.status, JSON.stringify(up.body)).toBe(200);
      pdfIds.push(up.body.data.id);
    }
    // The lane starts once all nine are queued: on a loaded machine the uploads alone may take longer than one
    // PDF's 2 s, and the first would be over before the last arrived.
    await app.services.startWorkers(1);
    // The lane is busy with the trial account's first PDF before the other account's file arrives.
    await waitFor("the first PDF to be read", async () => (await row(pdfIds[0]!)).extractionClaimedAt !== null, 30_000, 50);

    const sent = Date.now();
    const up = await uploadKnowledge(app, other, Buffer.from("Brewly ships on Tuesdays.\n"), "note.txt", "text/plain");
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const txtId = up.body.data.id as string;
    // One file is being read (the first PDF), and the TXT is next: the other eight PDFs wait behind it.
    expect(up.body.data).toMatchObject({ status: "extracting", filesAhead: 1 });
    const waiting = (await list(trial)).filter((item) => item.filesAhead !== null);
    expect(waiting.map((item) => item.filesAhead).sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);

    const txt = await waitFor(
      "the TXT to be read",
      async () => {
        const item = (await other.client.get(`/user/brand/knowledge/${txtId}`)).body.data;
        return item.status !== "extracting" && item;
      },
      60_000,
      100,
    );
    const waited = Date.now() - sent;
    expect(txt, `the TXT ended ${txt.status}: ${txt.error}`).toMatchObject({
      status: "ready",
      extractedText: "Brewly ships on Tuesdays.",
      filesAhead: null,
    });
    expect(waited, `the TXT waited ${waited} ms`).toBeLessThan(35_000);
    // Read second: only the PDF that held the lane when it arrived had started before it.
    const txtStarted = (await row(txtId)).extractionStartedAt!;
    const pdfs = await app.services.prisma.knowledgeItem.findMany({ where: { id: { in: pdfIds } } });
    expect(pdfs.filter((pdf) => pdf.extractionStartedAt && pdf.extractionStartedAt < txtStarted).map((pdf) => pdf.name)).toEqual([
      "slow-1.pdf",
    ]);
    // The slow PDF ended as a user reads it, within its time limit.
    expect(await row(pdfIds[0]!)).toMatchObject({
      status: "error",
      error: "This PDF could not be read within 2 seconds; split it or upload the text",
    });
    for (const id of pdfIds) expect((await trial.client.delete(`/user/brand/knowledge/${id}`)).status).toBe(200);
  });
});

// The extraction child's memory, measured from outside it: a PDF of 1 MB whose content stream inflates to
// 1 GB of zeros (which took a child to 1.6 GB under V8's 512 MB heap limit) is refused before pdf.js
// holds it, the child staying far under its memory limit; and a child that passes its limit anyway is
// killed, its item `error` in words a person understands, its extraction run once.
import { once } from "node:events";
import { createDeflate } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { extractionSandbox } from "../src/modules/knowledge/extraction-sandbox.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { sampleExtractionChildren } from "./support/child-memory.ts";
import { factPages, handMadePdf } from "./support/hand-made-pdf.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";
import { uploadKnowledge } from "./support/knowledge-files.ts";
import { waitFor } from "./support/wait-for.ts";

const MB = 1024 * 1024;
const defaults = { ...extractionSandbox };
let app: TestApp;
let account: Account;
beforeAll(async () => {
  // Time enough for the 500 pages read below on a loaded machine: what is measured here is memory.
  extractionSandbox.timeoutMs = 60_000;
  app = await startTestApp({ WORKERS: "1" });
  account = await signUp(app, "knowledge-memory");
});
afterAll(async () => {
  Object.assign(extractionSandbox, defaults);
  await app?.close();
});

/** A deflate stream of `bytes` zeros, made 64 MB at a time (and asynchronously: the server shares this process). */
async function deflatedZeros(bytes: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on("data", (chunk: Buffer) => chunks.push(chunk));
  const zeros = Buffer.alloc(64 * MB);
  for (let written = 0; written < bytes; written += zeros.length) {
    if (!deflate.write(zeros)) await once(deflate, "drain");
  }
  deflate.end();
  await once(deflate, "end");
  return Buffer.concat(chunks);
}

/** Uploads `bytes`, samples the extraction child's memory until the item is settled, and answers both. */
async function extractWatched(bytes: Buffer, filename: string) {
  const sampler = sampleExtractionChildren();
  const up = await uploadKnowledge(app, account, bytes, filename);
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  const id = up.body.data.id as string;
  const { prisma } = app.services;
  const row = await waitFor(
    `${filename} to be extracted`,
    async () => {
      const found = await prisma.knowledgeItem.findUniqueOrThrow({ where: { id } });
      return found.status !== "extracting" && found;
    },
    75_000,
    50,
  );
  const memory = sampler.stop();
  const item = (await account.client.get(`/user/brand/knowledge/${id}`)).body.data;
  await account.client.delete(`/user/brand/knowledge/${id}`);
  return { item, attempts: row.extractionAttempts, memory };
}

describe("the extraction child's memory", { timeout: 90_000 }, () => {
  it("a PDF whose content stream inflates to 1 GB is refused, the child staying under its memory limit", async () => {
    const bomb = handMadePdf([{ extra: " /Filter /FlateDecode", data: await deflatedZeros(1024 * MB) }]);
    expect(bomb.length).toBeLessThan(2 * MB);
    const { item, attempts, memory } = await extractWatched(bomb, "zeros.pdf");
    expect(item).toMatchObject({
      status: "error",
      error: "This PDF unpacks to more than 32 MB in one part; split it into smaller files and upload those",
    });
    expect(attempts).toBe(1);
    expect(memory.children).toBe(1);
    expect(memory.peakMb).toBeGreaterThan(0);
    expect(memory.peakMb, `the child held ${memory.peakMb} MB`).toBeLessThan(extractionSandbox.memoryMb);
  });

  it("a child that passes its memory limit is killed: the item ends error, in words, after one start", async () => {
    // 500 pages of a 20,000-page PDF take a child to about 180 MB; under a 130 MB limit it is stopped.
    extractionSandbox.memoryMb = 130;
    const { item, attempts, memory } = await extractWatched(factPages(20_000), "pages.pdf").finally(() => {
      extractionSandbox.memoryMb = defaults.memoryMb;
    });
    expect(item).toMatchObject({
      status: "error",
      error: "This PDF needs more memory to read than a document may use; split it or upload the text",
    });
    expect(attempts).toBe(1);
    expect(memory.children).toBe(1);
    // Sampled every 25 ms: a few MB past the limit at most before the kill.
    expect(memory.peakMb, `the child held ${memory.peakMb} MB`).toBeLessThan(130 + 40);
  });
});

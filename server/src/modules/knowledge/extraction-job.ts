// The extraction worker (queue `knowledge`): reads an item's stored bytes, extracts the text, indexes its
// passages and sets the item `ready` (with a warning when it holds no text) or `error` with a reason the
// user can act on. The message lives in the database (pg-boss), so an extraction interrupted by a
// restart runs again when a worker starts.
import { readFile } from "node:fs/promises";
import type { KnowledgeFileKind } from "@adgen/schema";
import type { Services } from "../../context.ts";
import { QUEUE, type QueueMessage } from "../../queue/queue.ts";
import { decodeText, type Extracted, ExtractionError, extractFileText, pageText } from "./extract.ts";
import type { ExtractionMessage } from "./knowledge-items.ts";
import { indexPassages } from "./passages.ts";

/** Longest text kept per item (characters); a longer document is cut, with a warning. */
const MAX_TEXT = 2_000_000;

async function extract(services: Services, item: { type: string; fileKey: string | null }): Promise<Extracted> {
  if (!item.fileKey) throw new ExtractionError("The item has no stored content; add it again");
  const path = await services.media.localFile(item.fileKey);
  if (item.type === "url") {
    const { text } = await pageText(decodeText(await readFile(path)));
    if (!text) throw new ExtractionError("The page has no readable text (it may be built by scripts or be empty); try another page");
    return { text };
  }
  const kind = item.fileKey.split(".").pop() as KnowledgeFileKind;
  return extractFileText(path, kind);
}

export async function runKnowledgeExtraction(services: Services, message: QueueMessage<ExtractionMessage>): Promise<void> {
  const { prisma } = services;
  const item = await prisma.knowledgeItem.findUnique({ where: { id: message.data.itemId } });
  if (item?.status !== "extracting") return;
  let extracted: Extracted;
  try {
    extracted = await extract(services, item);
  } catch (error) {
    const lastTry = message.retryCount >= message.retryLimit;
    if (!(error instanceof ExtractionError) && !lastTry) throw error;
    const reason =
      error instanceof ExtractionError ? error.message : "The file could not be read; upload it again, or export it anew first";
    services.logger.warn({ itemId: item.id, error: (error as Error).message }, "knowledge: extraction failed");
    await prisma.knowledgeItem.updateMany({ where: { id: item.id, status: "extracting" }, data: { status: "error", error: reason } });
    return;
  }
  let text = extracted.text;
  let warning = extracted.warning ?? null;
  if (text.length > MAX_TEXT) {
    text = text.slice(0, MAX_TEXT);
    warning = `Only the first ${MAX_TEXT.toLocaleString("en")} characters are kept; split the document to use the rest`;
  }
  await prisma.$transaction(async (tx) => {
    // Deleted while it was being read: nothing to index.
    const still = await tx.knowledgeItem.updateMany({
      where: { id: item.id, status: "extracting" },
      data: { status: "ready", extractedText: text, warning, error: null },
    });
    if (still.count === 1) await indexPassages(tx, item, text);
  });
}

/** How long an item may read `extracting` before the sweep queues its extraction again. */
const STALE_MS = 10 * 60_000;

/**
 * Queues again the extractions of items still `extracting` long after they were added (a crash between
 * the item's commit and its message, or a message given up): the singleton key keeps one message per item.
 */
export async function resendStaleExtractions(services: Services): Promise<void> {
  const stale = await services.prisma.knowledgeItem.findMany({
    where: { status: "extracting", updatedAt: { lt: new Date(Date.now() - STALE_MS) } },
    select: { id: true },
    take: 100,
  });
  for (const { id } of stale) {
    await services.queue.send<ExtractionMessage>(QUEUE.knowledge, { itemId: id }, { singletonKey: id });
    await services.prisma.knowledgeItem.updateMany({ where: { id, status: "extracting" }, data: { updatedAt: new Date() } });
  }
}

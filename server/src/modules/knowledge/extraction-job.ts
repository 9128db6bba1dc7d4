// The extraction worker (queue `knowledge`): reads an item's stored bytes, extracts the text in a child
// process (extraction-sandbox.ts), indexes its passages and sets the item `ready` (with a warning when it
// holds no text or was read in part) or `error` with a reason the user can act on. A failed extraction is
// never tried again by itself. Each start is counted on the item first: an extraction that took its
// process down twice is not queued a third time (the sweep below sets it `error`).
import type { KnowledgeFileKind } from "@adgen/schema";
import type { Services } from "../../request-context.ts";
import { QUEUE, type QueueMessage } from "../../queue/queue.ts";
import { EXTRACTION_CAPS } from "./extraction-caps.ts";
import { type Extracted, ExtractionError } from "./extraction-error.ts";
import { fetchKnowledgePage } from "./fetch-page.ts";
import { extractInSandbox } from "./extraction-sandbox.ts";
import type { ExtractionMessage } from "./knowledge-items.ts";
import { indexPassages } from "./passages.ts";

/** Extractions started for one item before it is given up (see resendStaleExtractions). */
const MAX_ATTEMPTS = 2;
const STOPPED_TWICE = "Extraction stopped twice before it finished; split the file or upload its text instead";
const UNREADABLE = "The file could not be read; upload it again, or export it anew first";

async function fail(services: Services, id: string, reason: string) {
  await services.prisma.knowledgeItem.updateMany({ where: { id, status: "extracting" }, data: { status: "error", error: reason } });
}

export async function runKnowledgeExtraction(services: Services, message: QueueMessage<ExtractionMessage>): Promise<void> {
  const { prisma } = services;
  let item = await prisma.knowledgeItem.findUnique({ where: { id: message.data.itemId } });
  if (item?.status !== "extracting") return;
  if (item.extractionAttempts >= MAX_ATTEMPTS) return fail(services, item.id, STOPPED_TWICE);
  // A web page is fetched here, once: the request that added it only checked its address.
  if (item.type === "url" && !item.fileKey) {
    const fetched = await fetchKnowledgePage(services, item);
    if ("error" in fetched) {
      services.logger.info({ itemId: item.id, reason: fetched.error }, "knowledge: page could not be read");
      return fail(services, item.id, fetched.error);
    }
    const recorded = await prisma.knowledgeItem.updateMany({ where: { id: item.id, status: "extracting" }, data: fetched.stored });
    // Deleted while it was being fetched: the stored page goes too.
    if (recorded.count === 0) return services.media.remove(fetched.stored.fileKey!).catch(() => {});
    item = { ...item, ...fetched.stored };
  }
  if (!item.fileKey) return fail(services, item.id, "The item has no stored content; add it again");
  let path: string;
  try {
    path = await services.media.localFile(item.fileKey);
  } catch (error) {
    // The store is unreachable: the queue tries the message again, up to its retry limit.
    if (message.retryCount < message.retryLimit) throw error;
    services.logger.warn({ itemId: item.id, error: (error as Error).message }, "knowledge: stored file unavailable");
    return fail(services, item.id, UNREADABLE);
  }
  // Counted before it runs: a start that never ends (the process died) still counts.
  const started = await prisma.knowledgeItem.updateMany({
    where: { id: item.id, status: "extracting" },
    data: { extractionAttempts: { increment: 1 } },
  });
  if (started.count === 0) return;
  let extracted: Extracted;
  try {
    const kind = item.type === "url" ? "html" : (item.fileKey.split(".").pop() as KnowledgeFileKind);
    extracted = await extractInSandbox(kind, path);
  } catch (error) {
    const reason = error instanceof ExtractionError ? error.message : UNREADABLE;
    const cause = (error as Error).cause;
    services.logger.warn(
      { itemId: item.id, error: (error as Error).message, ...(cause ? { cause: String(cause) } : {}) },
      "knowledge: extraction failed",
    );
    return fail(services, item.id, reason);
  }
  let text = extracted.text;
  let warning = extracted.warning ?? null;
  if (text.length > EXTRACTION_CAPS.maxTextChars) {
    text = text.slice(0, EXTRACTION_CAPS.maxTextChars);
    warning = `Only the first ${EXTRACTION_CAPS.maxTextChars.toLocaleString("en")} characters are kept; split the document to use the rest`;
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
 * the item's commit and its message, a message given up, a process that died while extracting): the
 * singleton key keeps one message per item. An item whose extraction already started twice is set
 * `error` instead, so a file that takes its worker down cannot take it down at every start.
 */
export async function resendStaleExtractions(services: Services): Promise<void> {
  const stale = await services.prisma.knowledgeItem.findMany({
    where: { status: "extracting", updatedAt: { lt: new Date(Date.now() - STALE_MS) } },
    select: { id: true, extractionAttempts: true },
    take: 100,
  });
  for (const { id, extractionAttempts } of stale) {
    if (extractionAttempts >= MAX_ATTEMPTS) {
      services.logger.warn({ itemId: id, attempts: extractionAttempts }, "knowledge: extraction stopped twice; not queued again");
      await fail(services, id, STOPPED_TWICE);
      continue;
    }
    await services.queue.send<ExtractionMessage>(QUEUE.knowledge, { itemId: id }, { singletonKey: id });
    await services.prisma.knowledgeItem.updateMany({ where: { id, status: "extracting" }, data: { updatedAt: new Date() } });
  }
}

// The extraction worker (queue `knowledge`): a message wakes a lane, which extracts items one after
// another, each the one whose turn it is (extraction-turns.ts: round robin between accounts, one item per
// account at a time), until no item may start. For each it reads the stored bytes, extracts the text in
// a child process (extraction-sandbox.ts), indexes its passages and sets the item `ready` (with a warning
// when it holds no text or was read in part) or `error` with a reason the user can act on. A failed
// extraction is never tried again by itself. Each start is counted on the item when it is claimed: an
// extraction that took its process down twice is not run a third time.
import type { KnowledgeItem as KnowledgeRow } from "@adgen/prisma";
import type { KnowledgeFileKind } from "@adgen/schema";
import type { Services } from "../../request-context.ts";
import { QUEUE, type QueueMessage } from "../../queue/queue.ts";
import { EXTRACTION_CAPS } from "./extraction-caps.ts";
import { type Extracted, ExtractionError } from "./extraction-error.ts";
import { extractInSandbox } from "./extraction-sandbox.ts";
import { claimNextExtraction, MAX_ATTEMPTS, releaseClaim, STOPPED_TWICE } from "./extraction-turns.ts";
import { fetchKnowledgePage } from "./fetch-page.ts";
import type { ExtractionMessage } from "./knowledge-items.ts";
import { indexPassages } from "./passages.ts";

const UNREADABLE = "The file could not be read; upload it again, or export it anew first";
/**
 * A lane hands over to a fresh message after this long, well inside the queue's 600 s expiry: past it
 * pg-boss would count the message's worker dead and run it again beside this one.
 */
const LANE_TURN_MS = 5 * 60_000;

async function fail(services: Services, id: string, reason: string) {
  await services.prisma.knowledgeItem.updateMany({
    where: { id, status: "extracting" },
    data: { status: "error", error: reason, extractionClaimedAt: null },
  });
}

/** Extracts, one after another, every item that may start now, whichever item `message` was sent for. */
export async function runKnowledgeExtraction(services: Services, message: QueueMessage<ExtractionMessage>): Promise<void> {
  const started = Date.now();
  for (;;) {
    const item = await claimNextExtraction(services.prisma);
    if (!item) return;
    try {
      await extractItem(services, item, message);
    } catch (error) {
      // Not the document's doing (the database, the store): the next lane may take the item at once.
      await releaseClaim(services.prisma, item.id, { uncounted: false }).catch(() => {});
      throw error;
    }
    if (Date.now() - started > LANE_TURN_MS) {
      await services.queue.send<ExtractionMessage>(QUEUE.knowledge, { itemId: item.id });
      return;
    }
  }
}

/** Extracts one claimed item and sets it `ready` or `error`. */
async function extractItem(services: Services, claimed: KnowledgeRow, message: QueueMessage<ExtractionMessage>): Promise<void> {
  const { prisma } = services;
  let item = claimed;
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
    // The store is unreachable: the claim is given back and the queue tries the message again, up to its
    // retry limit; the lane that then runs takes the item in its turn.
    if (message.retryCount < message.retryLimit) {
      await releaseClaim(prisma, item.id, { uncounted: true });
      throw error;
    }
    services.logger.warn({ itemId: item.id, error: (error as Error).message }, "knowledge: stored file unavailable");
    return fail(services, item.id, UNREADABLE);
  }
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
      data: { status: "ready", extractedText: text, warning, error: null, extractionClaimedAt: null },
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

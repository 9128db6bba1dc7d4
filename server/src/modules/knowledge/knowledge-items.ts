// The knowledge base's items: an uploaded document or a web page. Adding a file stores its bytes in the
// media store, adding a page only its address; either way its extraction is queued (a page is fetched
// there first), and the item reads `extracting` until the worker sets `ready` or `error`. Only the owner can see or
// delete an item: anyone else gets 404, as if it did not exist.
import { randomUUID } from "node:crypto";
import type { KnowledgeItem as KnowledgeRow } from "@adgen/prisma";
import {
  KNOWLEDGE_LIMITS,
  type KnowledgeDeleted,
  type KnowledgeItem,
  type KnowledgeItemWithText,
  KnowledgeUrlsInput,
  type UploadedFile,
} from "@adgen/schema";
import type { Services, Tx } from "../../request-context.ts";
import { AppError, Errors, parseInput } from "../../errors.ts";
import { QUEUE } from "../../queue/queue.ts";
import { type AuditSource, recordAudit } from "../audit/record-audit.ts";
import { assertStorableUrl, SafeFetchError } from "../net/index.ts";
import { filesAhead } from "./extraction-turns.ts";
import { sniffKnowledgeFile } from "./sniff.ts";

/** Namespace of the per-account knowledge locks (two-key advisory locks: this and a hash of the account id). */
const KNOWLEDGE_LOCK = 4_277_003;

export interface ExtractionMessage {
  itemId: string;
}

const bad = (field: string, message: string) => new AppError("BAD_REQUEST", message, { fields: [{ field, message }] });

/** The folder of one account's knowledge files in the media store. */
export function knowledgePrefix(userId: string): string {
  // A user id is one path segment; anything else could name another folder of the store.
  if (!/^[A-Za-z0-9_-]+$/.test(userId)) throw new Error(`not a user id: ${userId}`);
  return `knowledge/${userId}`;
}

/** An item as the API shows it; `ahead` is filesAhead's answer for its account. */
export function view(row: KnowledgeRow, ahead: Map<string, number>): KnowledgeItem {
  return {
    id: row.id,
    type: row.type as KnowledgeItem["type"],
    name: row.name,
    status: row.status as KnowledgeItem["status"],
    mimeType: row.mimeType,
    size: row.size,
    warning: row.warning,
    error: row.error,
    sourceUrl: row.sourceUrl,
    textLength: row.extractedText?.length ?? 0,
    filesAhead: ahead.get(row.id) ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

const lockKnowledge = (tx: Tx, userId: string) => tx.$executeRaw`SELECT pg_advisory_xact_lock(${KNOWLEDGE_LOCK}::int, hashtext(${userId}))`;
const countOf = (db: Tx, userId: string, type: "file" | "url") => db.knowledgeItem.count({ where: { userId, type } });

function quotaMessage(type: "file" | "url", adding = 1): string {
  const max = type === "file" ? KNOWLEDGE_LIMITS.maxFiles : KNOWLEDGE_LIMITS.maxUrls;
  const what = type === "file" ? "files" : "web pages";
  return adding > 1
    ? `Your knowledge base holds at most ${max} ${what}; adding ${adding} would pass that, so none was added. Delete some first`
    : `Your knowledge base already holds ${max} ${what}, the most it can; delete one before adding another`;
}

export async function queueExtraction(services: Services, itemId: string) {
  await services.queue.send<ExtractionMessage>(QUEUE.knowledge, { itemId }, { singletonKey: itemId });
}

/** Adds an uploaded document (PDF, DOCX, XLSX, CSV or TXT, judged by content and name) and queues its extraction. */
export async function uploadKnowledgeFile(
  services: Services,
  user: { id: string },
  source: AuditSource,
  file: UploadedFile,
): Promise<KnowledgeItem> {
  const { prisma, media } = services;
  // Refused early when full (checked again under the lock below, which is what counts).
  if ((await countOf(prisma, user.id, "file")) >= KNOWLEDGE_LIMITS.maxFiles) throw bad("file", quotaMessage("file"));
  if (file.bytes > KNOWLEDGE_LIMITS.maxFileBytes)
    throw bad("file", `"${file.filename}" is larger than 50 MB; split it or upload a smaller file`);
  const sniffed = await sniffKnowledgeFile(file.path, file.filename);
  if (!sniffed.ok) throw bad("file", sniffed.reason);
  const id = randomUUID();
  const fileKey = `${knowledgePrefix(user.id)}/${id}.${sniffed.kind}`;
  let stored = false;
  try {
    const row = await prisma.$transaction(async (tx) => {
      // One account's additions take turns, so two at once cannot both be the 9th.
      await lockKnowledge(tx, user.id);
      if ((await countOf(tx, user.id, "file")) >= KNOWLEDGE_LIMITS.maxFiles) throw bad("file", quotaMessage("file"));
      const { bytes } = await media.put(fileKey, file.path);
      stored = true;
      const created = await tx.knowledgeItem.create({
        data: {
          id,
          userId: user.id,
          type: "file",
          name: file.filename.slice(0, 255) || `document.${sniffed.kind}`,
          mimeType: sniffed.mime,
          size: bytes,
          fileKey,
        },
      });
      await recordAudit(tx, source, {
        action: "knowledge.file_added",
        targetType: "knowledge",
        targetId: id,
        metadata: { bytes, kind: sniffed.kind },
      });
      return created;
    });
    await queueExtraction(services, row.id);
    return view(row, await filesAhead(prisma, user.id));
  } catch (error) {
    if (stored) await media.remove(fileKey).catch(() => {});
    throw error;
  }
}

/**
 * Adds web pages (one `url` or several `urls`), as SPEC says: 200 at once with each item `extracting`;
 * the page is fetched on the queue (fetch-page.ts), and the item becomes `ready` or `error`. Only the
 * address is checked here: a local name, a private or loopback literal, or a name that resolves to a
 * private address now answers 400 and adds none of the list. A name that does not resolve now is
 * accepted; the fetch checks every hop again when it happens.
 */
export async function addKnowledgeUrls(
  services: Services,
  user: { id: string },
  source: AuditSource,
  input: KnowledgeUrlsInput,
): Promise<KnowledgeItem[]> {
  const { prisma } = services;
  const parsed = parseInput(KnowledgeUrlsInput, input);
  const urls = [...new Set([...(parsed.url ? [parsed.url] : []), ...(parsed.urls ?? [])])];
  const over = async (db: Tx) => (await countOf(db, user.id, "url")) + urls.length > KNOWLEDGE_LIMITS.maxUrls;
  if (urls.length > KNOWLEDGE_LIMITS.maxUrls || (await over(prisma))) throw bad("url", quotaMessage("url", urls.length));
  for (const url of urls) {
    await assertStorableUrl(url, { resolver: services.resolver }).catch((error: unknown) => {
      throw error instanceof SafeFetchError ? bad("url", `${url}: ${error.detail}`) : error;
    });
  }
  const rows = await prisma.$transaction(async (tx) => {
    await lockKnowledge(tx, user.id);
    if (await over(tx)) throw bad("url", quotaMessage("url", urls.length));
    const created: KnowledgeRow[] = [];
    for (const url of urls) {
      const row = await tx.knowledgeItem.create({
        data: { userId: user.id, type: "url", name: url.slice(0, 255), mimeType: "text/html", size: 0, sourceUrl: url },
      });
      created.push(row);
      await recordAudit(tx, source, {
        action: "knowledge.url_added",
        targetType: "knowledge",
        targetId: row.id,
        metadata: { url },
      });
    }
    return created;
  });
  for (const row of rows) await queueExtraction(services, row.id);
  const ahead = await filesAhead(prisma, user.id);
  return rows.map((row) => view(row, ahead));
}

/** The account's items, newest first (without their text). */
export async function listKnowledge(services: Services, user: { id: string }): Promise<KnowledgeItem[]> {
  const rows = await services.prisma.knowledgeItem.findMany({ where: { userId: user.id }, orderBy: { createdAt: "desc" } });
  const ahead = rows.some((row) => row.status === "extracting") ? await filesAhead(services.prisma, user.id) : new Map<string, number>();
  return rows.map((row) => view(row, ahead));
}

export async function ownItem(db: Tx, userId: string, id: string): Promise<KnowledgeRow> {
  const row = await db.knowledgeItem.findFirst({ where: { id, userId } });
  if (!row) throw Errors.notFound("Knowledge item");
  return row;
}

/** One item with its extracted text (empty while extracting). */
export async function getKnowledgeItem(services: Services, user: { id: string }, id: string): Promise<KnowledgeItemWithText> {
  const row = await ownItem(services.prisma, user.id, id);
  const ahead = row.status === "extracting" ? await filesAhead(services.prisma, user.id) : new Map<string, number>();
  return { ...view(row, ahead), extractedText: row.extractedText ?? "" };
}

/** Deletes an item, its stored file and its passages (the index entries go with the row). */
export async function deleteKnowledgeItem(
  services: Services,
  user: { id: string },
  source: AuditSource,
  id: string,
): Promise<KnowledgeDeleted> {
  const row = await services.prisma.$transaction(async (tx) => {
    const item = await ownItem(tx, user.id, id);
    await tx.knowledgeItem.delete({ where: { id: item.id } });
    await recordAudit(tx, source, { action: "knowledge.deleted", targetType: "knowledge", targetId: item.id });
    return item;
  });
  if (row.fileKey) await services.media.remove(row.fileKey);
  return { id: row.id, deleted: true };
}

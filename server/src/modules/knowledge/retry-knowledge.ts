// Trying an item that ended as `error` again, from the knowledge page's button: a web page is fetched
// anew (the site may be back, or the address fixed at its end), a document read again from its stored
// file. The item keeps its id and place; only an `error` item can be retried (anything else is a 409).
import type { KnowledgeItem } from "@adgen/schema";
import type { Services } from "../../request-context.ts";
import { AppError } from "../../errors.ts";
import { type AuditSource, recordAudit } from "../audit/record-audit.ts";
import { filesAhead } from "./extraction-turns.ts";
import { ownItem, queueExtraction, view } from "./knowledge-items.ts";

export async function retryKnowledgeItem(
  services: Services,
  user: { id: string },
  source: AuditSource,
  id: string,
): Promise<KnowledgeItem> {
  const { prisma, media } = services;
  const { row, staleFile } = await prisma.$transaction(async (tx) => {
    const item = await ownItem(tx, user.id, id);
    if (item.status !== "error") {
      throw new AppError(
        "CONFLICT",
        `This item is ${item.status === "ready" ? "already read" : "still being read"}; only one that failed can be tried again`,
      );
    }
    const page = item.type === "url";
    const updated = await tx.knowledgeItem.update({
      where: { id: item.id },
      data: {
        status: "extracting",
        error: null,
        warning: null,
        extractionAttempts: 0,
        extractionClaimedAt: null,
        ...(page ? { fileKey: null, size: 0 } : {}),
      },
    });
    await recordAudit(tx, source, { action: "knowledge.retried", targetType: "knowledge", targetId: item.id });
    return { row: updated, staleFile: page ? item.fileKey : null };
  });
  if (staleFile) await media.remove(staleFile).catch(() => {});
  await queueExtraction(services, row.id);
  return view(row, await filesAhead(prisma, user.id));
}

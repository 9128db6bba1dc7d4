// Who owns a preview's media. A preview's pictures live under its own id (`jobs/<previewId>/…`, as a job's
// do), and each preview holds only its own: previewing again copies the earlier preview's files under the new
// id, and a launch copies them under the job's. So a preview can be thrown away whole once it is old
// (expirePreviews) without taking a picture from a later preview or from a job made from it.
import { randomBytes } from "node:crypto";
import { copyFile } from "node:fs/promises";
import { join } from "node:path";
import { AppError } from "../../../errors.ts";
import { jobMediaKey } from "../../../media/storage.ts";
import type { Services } from "../../../request-context.ts";

/** How long a preview can be previewed again or launched. */
export const PREVIEW_TTL_MS = 24 * 3600_000;

/**
 * A new preview id: a UUID of version 7, whose first 48 bits are the time it was made (RFC 9562), so the
 * sweep knows a preview's age from its name without opening it.
 */
export function newPreviewId(now = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** When the preview `id` was made (ms since the epoch), or null for an id that does not say (made before v7 ids). */
export function previewMadeAt(id: string): number | null {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-7/.test(id) ? Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16) : null;
}

const MEDIA_KEY = /jobs\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/([A-Za-z0-9._-]+)/g;

/**
 * `steps` with every media key of another preview copied under `owner` (a new preview's id, or the job's
 * being launched) and renamed to the copy. Keys of real jobs (an optimizer's source project) are left as they
 * are: those files are their jobs'. A file that is gone (its preview expired) is a 404 that says to preview again.
 */
export async function keepPreviewMediaUnder(
  services: Services,
  steps: Record<string, unknown>,
  owner: string,
): Promise<Record<string, unknown>> {
  const text = JSON.stringify(steps);
  const foreignIds = new Set([...text.matchAll(MEDIA_KEY)].map((match) => match[1]!).filter((id) => id !== owner));
  if (foreignIds.size === 0) return steps;
  const jobs = await services.prisma.job.findMany({ where: { id: { in: [...foreignIds] } }, select: { id: true } });
  for (const job of jobs) foreignIds.delete(job.id);
  if (foreignIds.size === 0) return steps;
  const renamed = (id: string, file: string) => `${id.slice(0, 8)}-${file}`;
  const copies = new Map<string, { id: string; file: string }>();
  for (const match of text.matchAll(MEDIA_KEY)) {
    if (foreignIds.has(match[1]!)) copies.set(match[0], { id: match[1]!, file: match[2]! });
  }
  const dir = await services.media.scratchDir(`${owner}/from-preview`);
  for (const [source, { id, file }] of copies) {
    if (!(await services.media.stat(source))) {
      throw new AppError(
        "NOT_FOUND",
        "This preview's pictures are gone (a preview is kept 24 hours): preview the ad again and use its new previewId",
      );
    }
    const local = join(dir, renamed(id, file));
    await copyFile(await services.media.localFile(source), local);
    await services.media.put(jobMediaKey(owner, renamed(id, file)), local);
  }
  return JSON.parse(
    text.replace(MEDIA_KEY, (whole, id: string, file: string) => (foreignIds.has(id) ? `jobs/${owner}/${renamed(id, file)}` : whole)),
  );
}

/** Removes the previews made more than PREVIEW_TTL_MS before `now`, with their media; answers how many. */
export async function expirePreviews(services: Services, now = Date.now()): Promise<number> {
  let removed = 0;
  for (const { key } of await services.media.list("previews")) {
    const id = /^previews\/([0-9a-f-]{36})\.json$/.exec(key)?.[1];
    if (!id) continue;
    const madeAt = previewMadeAt(id) ?? (await services.media.stat(key))?.modifiedAt.getTime() ?? now;
    if (now - madeAt <= PREVIEW_TTL_MS) continue;
    await services.media.remove(key);
    await services.media.remove(`jobs/${id}`);
    removed += 1;
  }
  return removed;
}

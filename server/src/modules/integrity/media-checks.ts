// The media store against the rows that own its files: files no row owns (orphans), and finished jobs
// whose own files are gone.
import type { Services } from "../../request-context.ts";

/** Finished jobs whose files are checked, newest first (each check is one stat). */
const JOBS_CHECKED = 2000;

type StoredFile = { key: string; bytes: number };

/** `jobs/<jobId>/…`: everything in a job's folder (its outputs, thumbnails, captions) is the job's. */
async function unownedJobFiles(services: Services, files: StoredFile[]): Promise<StoredFile[]> {
  const jobIds = [...new Set(files.map((file) => file.key.split("/")[1]!))];
  const live = new Set(
    (await services.prisma.job.findMany({ where: { id: { in: jobIds }, refundedAt: null }, select: { id: true } })).map((job) => job.id),
  );
  return files.filter((file) => !live.has(file.key.split("/")[1]!));
}

/**
 * `brand/<userId>/…`: a library row owns the files its columns name (the photo or clip, a clip's poster)
 * and any other file made from it and stored beside it as `<rowId>-<kind>.<ext>`, as the poster is
 * (`<id>-poster.jpg`): a working copy or thumbnail named so belongs to its row too, and stays reported
 * as an orphan once the row is gone. Without this every clip's live poster was reported orphaned.
 */
async function unownedBrandFiles(services: Services, files: StoredFile[]): Promise<StoredFile[]> {
  const owners = [...new Set(files.map((file) => file.key.split("/")[1]!))];
  const rows = await services.prisma.brandMedia.findMany({
    where: { userId: { in: owners } },
    select: { id: true, userId: true, fileKey: true, posterKey: true },
  });
  const named = new Set(rows.flatMap((row) => (row.posterKey ? [row.fileKey, row.posterKey] : [row.fileKey])));
  const idsByFolder = new Map<string, Set<string>>();
  for (const row of rows) {
    const folder = `brand/${row.userId}/`;
    idsByFolder.set(folder, (idsByFolder.get(folder) ?? new Set()).add(row.id));
  }
  // `<rowId>-<kind>…`: the name up to one of its dashes is a row of the same folder (an id has dashes of its own).
  const derived = (key: string) => {
    const slash = key.lastIndexOf("/") + 1;
    const ids = idsByFolder.get(key.slice(0, slash));
    const name = key.slice(slash);
    for (let dash = name.indexOf("-"); ids && dash > 0; dash = name.indexOf("-", dash + 1)) {
      if (ids.has(name.slice(0, dash)) && dash < name.length - 1) return true;
    }
    return false;
  };
  return files.filter((file) => !named.has(file.key) && !derived(file.key));
}

/** `exports/…`: only finished archives (an export's scratch files live under `.work/`). */
async function unownedExportFiles(services: Services, files: StoredFile[]): Promise<StoredFile[]> {
  const keys = new Set(
    (await services.prisma.exportRequest.findMany({ where: { fileKey: { in: files.map((f) => f.key) } }, select: { fileKey: true } })).map(
      (row) => row.fileKey,
    ),
  );
  return files.filter((file) => !keys.has(file.key));
}

/** Files in the store's `jobs/`, `brand/` and `exports/` folders whose owning row does not exist (or was refunded). */
export async function orphanedMedia(services: Services): Promise<StoredFile[]> {
  const [jobFiles, brandFiles, exportFiles] = await Promise.all([
    services.media.list("jobs"),
    services.media.list("brand"),
    services.media.list("exports"),
  ]);
  const [jobs, brand, exports] = await Promise.all([
    unownedJobFiles(services, jobFiles),
    unownedBrandFiles(services, brandFiles),
    unownedExportFiles(services, exportFiles),
  ]);
  return [...jobs, ...brand, ...exports];
}

/** Completed, unrefunded jobs whose result names a file of their own that the store does not have. */
export async function jobsWithMissingFiles(services: Services): Promise<{ jobId: string; missing: string[] }[]> {
  const jobs = await services.prisma.job.findMany({
    where: { status: "completed", refundedAt: null },
    select: { id: true, result: true },
    orderBy: { createdAt: "desc" },
    take: JOBS_CHECKED,
  });
  const out: { jobId: string; missing: string[] }[] = [];
  for (const job of jobs) {
    const files = new Set<string>();
    const own = new RegExp(`/api/media/${job.id}/([A-Za-z0-9._-]+)$`);
    const assets = (job.result as { assets?: { url?: unknown; thumbnail?: unknown }[] } | null)?.assets;
    for (const asset of Array.isArray(assets) ? assets : []) {
      for (const url of [asset?.url, asset?.thumbnail]) {
        const match = typeof url === "string" ? url.match(own) : null;
        if (match && !match[1]!.startsWith(".")) files.add(match[1]!);
      }
    }
    const missing: string[] = [];
    for (const file of files) if (!(await services.media.stat(`jobs/${job.id}/${file}`))) missing.push(file);
    if (missing.length) out.push({ jobId: job.id, missing });
  }
  return out;
}

// The scene segment cache the service renders with (scene-segments.ts): segments live in MediaStorage
// (local disk or the S3 bucket every machine shares) under `cache/segments/<key>`, indexed in
// `render_segments` with their size and last use. Past RENDER_CACHE_MB the least recently used are deleted.
// Lookups are counted in `render_cache_stats` for the admin system page's hit rate.
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PrismaClient } from "@adgen/prisma";
import type { MediaStorage } from "../../media/storage.ts";
import type { SegmentCache } from "./scene-segments.ts";

const prefix = (key: string) => `cache/segments/${key}`;

export interface SegmentCacheStats {
  entries: number;
  bytes: number;
  capBytes: number;
  hits: number;
  misses: number;
  /** hits / (hits + misses), null before the first lookup. */
  hitRate: number | null;
}

async function count(prisma: PrismaClient, field: "hits" | "misses"): Promise<void> {
  await prisma.renderCacheStats.upsert({ where: { id: 1 }, create: { id: 1, [field]: 1 }, update: { [field]: { increment: 1 } } });
}

export function createSegmentStore(prisma: PrismaClient, media: MediaStorage, capBytes: number): SegmentCache {
  async function evict(): Promise<void> {
    const { _sum } = await prisma.renderSegment.aggregate({ _sum: { bytes: true } });
    let total = _sum.bytes ?? 0;
    if (total <= capBytes) return;
    // Down to 90 % of the cap, oldest use first, so a busy cache does not evict on every put.
    const oldest = await prisma.renderSegment.findMany({ orderBy: { lastUsedAt: "asc" }, select: { key: true, bytes: true }, take: 500 });
    for (const row of oldest) {
      if (total <= capBytes * 0.9) break;
      await prisma.renderSegment.deleteMany({ where: { key: row.key } });
      await media.remove(prefix(row.key)).catch(() => {});
      total -= row.bytes;
    }
  }

  return {
    async get(key, options) {
      const found = await prisma.renderSegment.findUnique({ where: { key } });
      const file = found && (await media.stat(prefix(key))) ? await media.localFile(prefix(key)).catch(() => null) : null;
      const counted = !key.endsWith(".thumb") && !options?.uncounted;
      if (!file) {
        if (found) await prisma.renderSegment.deleteMany({ where: { key } });
        if (counted) await count(prisma, "misses");
        return null;
      }
      await prisma.renderSegment.update({ where: { key }, data: { lastUsedAt: new Date(), hits: { increment: 1 } } });
      if (counted) await count(prisma, "hits");
      return file;
    },
    async put(key, file) {
      // The store may move what it is given: it gets a copy, the render keeps its file.
      const dir = await mkdtemp(join(tmpdir(), "adgen-segment-"));
      try {
        const copy = join(dir, "segment");
        await copyFile(file, copy);
        const stored = await media.put(prefix(key), copy);
        await prisma.renderSegment.upsert({
          where: { key },
          create: { key, bytes: stored.bytes },
          update: { bytes: stored.bytes, lastUsedAt: new Date() },
        });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
      await evict();
    },
  };
}

export async function segmentCacheStats(prisma: PrismaClient, capBytes: number): Promise<SegmentCacheStats> {
  const [{ _sum, _count }, stats] = await Promise.all([
    prisma.renderSegment.aggregate({ _sum: { bytes: true }, _count: { key: true } }),
    prisma.renderCacheStats.findUnique({ where: { id: 1 } }),
  ]);
  const hits = Number(stats?.hits ?? 0);
  const misses = Number(stats?.misses ?? 0);
  return {
    entries: _count.key,
    bytes: _sum.bytes ?? 0,
    capBytes,
    hits,
    misses,
    hitRate: hits + misses > 0 ? Math.round((hits / (hits + misses)) * 1000) / 1000 : null,
  };
}

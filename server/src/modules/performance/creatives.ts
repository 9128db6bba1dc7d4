// A tracked creative: the caller's id is one of the account's projects (then its brand is the project's
// launch brand, else the default brand) or an external ad id (its brand is the ingest's brandId, else the
// default brand). Another account's project id is just an external id of this account: nothing leaks.
import type { PerformanceCreative } from "@adgen/prisma";
import { NO_BRAND } from "@adgen/schema";
import type { Tx } from "../../request-context.ts";
import { AppError, Errors } from "../../errors.ts";

/** The brand a project was launched for: the one it named, none for NO_BRAND, else the default. */
async function launchBrandId(db: Tx, userId: string, named: string | undefined): Promise<string | null> {
  if (named === NO_BRAND) return null;
  return named ?? defaultBrandId(db, userId);
}

async function defaultBrandId(db: Tx, userId: string): Promise<string | null> {
  const brand = await db.brandProfile.findFirst({ where: { userId, isDefault: true }, select: { id: true } });
  return brand?.id ?? null;
}

async function ownBrandId(db: Tx, userId: string, brandId: string): Promise<string> {
  const brand = await db.brandProfile.findFirst({ where: { id: brandId, userId }, select: { id: true } });
  if (!brand) throw Errors.notFound("Brand");
  return brand.id;
}

async function brandName(db: Tx, brandId: string | null): Promise<string> {
  if (!brandId) return "no brand";
  const brand = await db.brandProfile.findUnique({ where: { id: brandId }, select: { profile: true } });
  const name = (brand?.profile as { name?: unknown } | null)?.name;
  return typeof name === "string" && name ? `the brand “${name}”` : "another brand";
}

/**
 * A page that enters figures for one brand sends its brandId with every row, a project id included: that
 * is right when it is the project's own brand, and a mistake worth saying when it is another one.
 */
async function checkProjectBrand(db: Tx, key: string, projectBrand: string | null, chosen: string): Promise<void> {
  if (projectBrand === chosen) return;
  const message = `Project ${key} was made for ${await brandName(db, projectBrand)}, not ${await brandName(db, chosen)}: enter its figures under its own brand, or leave brandId out`;
  throw new AppError("BAD_REQUEST", message, { fields: [{ field: "brandId", message }] });
}

/** The creative named `key`, created on its first figures. */
export async function resolveCreative(db: Tx, userId: string, key: string, brandId?: string): Promise<PerformanceCreative> {
  const explicitBrand = brandId ? await ownBrandId(db, userId, brandId) : null;
  const existing = await db.performanceCreative.findUnique({ where: { userId_key: { userId, key } } });
  if (existing) {
    if (explicitBrand && existing.jobId) await checkProjectBrand(db, key, existing.brandId, explicitBrand);
    else if (explicitBrand && explicitBrand !== existing.brandId)
      return db.performanceCreative.update({ where: { id: existing.id }, data: { brandId: explicitBrand } });
    return existing;
  }
  const job = await db.job.findFirst({ where: { id: key, userId }, select: { id: true, input: true } });
  const launchBrand = job ? await launchBrandId(db, userId, (job.input as { brand?: string } | null)?.brand) : null;
  if (job && explicitBrand) await checkProjectBrand(db, key, launchBrand, explicitBrand);
  const brand = job ? launchBrand : (explicitBrand ?? (await defaultBrandId(db, userId)));
  // Two first ingests at once: the unique (user, key) lets one create it, the other reads it.
  await db.performanceCreative.createMany({ data: [{ userId, key, jobId: job?.id ?? null, brandId: brand }], skipDuplicates: true });
  return db.performanceCreative.findUniqueOrThrow({ where: { userId_key: { userId, key } } });
}

/** An existing creative of the account, or 404. */
export async function findCreative(db: Tx, userId: string, key: string): Promise<PerformanceCreative> {
  const creative = await db.performanceCreative.findUnique({ where: { userId_key: { userId, key } } });
  if (!creative) throw new AppError("NOT_FOUND", `Creative ${key} not found: it has no figures yet`);
  return creative;
}

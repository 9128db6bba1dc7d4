// The account's brands (SPEC 2.4): each one profile. Either stated field set may be sent; the saved profile
// answers both, so old and new clients read what they wrote. An account may keep several brands; one is
// its default (GET/POST /user/brand, and jobs that name none). Art direction reads a brand by id. A brand
// (Brand Clone) job adds the kit it read from the brand's site (`saveBrandKit`); the user edits it like
// any other field.
import type { Prisma, PrismaClient } from "@adgen/prisma";
import {
  type Brand,
  BrandCreate,
  type BrandDeleted,
  type BrandKit,
  BrandProfileInput,
  BrandUpdate,
  MAX_BRANDS_PER_ACCOUNT,
  NO_BRAND,
} from "@adgen/schema";
import type { Services, Tx } from "../../request-context.ts";
import { AppError, Errors, parseInput } from "../../errors.ts";
import { type AuditSource, recordAudit } from "../audit/record-audit.ts";

const withHash = (c: string) => (c.startsWith("#") ? c : `#${c}`).toLowerCase();

/** Fills each field set from the other so both read the same profile. */
function bothShapes(input: BrandProfileInput): BrandProfileInput & { audience?: string } {
  const listed = input.brandColors?.split(",").map((c) => withHash(c.trim())) ?? [];
  const named = input.colors && Object.values(input.colors).some(Boolean) ? input.colors : null;
  // The named colours say which is which; the list only gives an order (primary, secondary, accent).
  const colors = named
    ? {
        primary: named.primary ? withHash(named.primary) : undefined,
        secondary: named.secondary ? withHash(named.secondary) : undefined,
        accent: named.accent ? withHash(named.accent) : undefined,
      }
    : { primary: listed[0], secondary: listed[1], accent: listed[2] };
  const colorList = [colors.primary, colors.secondary, colors.accent].filter(Boolean).join(", ");
  const name = input.name ?? input.brandName;
  const tone = input.tone ?? input.brandVoice;
  const out: BrandProfileInput & { audience?: string } = { ...input };
  if (name) [out.name, out.brandName] = [name, name];
  if (tone) [out.tone, out.brandVoice] = [tone, tone];
  if (colorList) {
    out.brandColors = colorList;
    out.colors = Object.fromEntries(Object.entries(colors).filter(([, v]) => v)) as BrandProfileInput["colors"];
  }
  if (input.targetAudience) out.audience = input.targetAudience;
  return out;
}

type BrandRow = { id: string; profile: unknown; isDefault: boolean; updatedAt: Date };

function view(row: BrandRow): Brand {
  return { ...(row.profile as BrandProfileInput), id: row.id, isDefault: row.isDefault, updatedAt: row.updatedAt.toISOString() };
}

/** Namespace of the per-account brand locks (two-key advisory locks: this and a hash of the account id). */
const BRAND_LOCK = 4_277_002;

/** One account's brand writes take turns, so a save and a brand job's kit never overwrite each other's fields. */
const lockBrands = (tx: Tx, userId: string) => tx.$executeRaw`SELECT pg_advisory_xact_lock(${BRAND_LOCK}::int, hashtext(${userId}))`;

const defaultRow = (db: Tx, userId: string) => db.brandProfile.findFirst({ where: { userId, isDefault: true } });

/** The account's default brand (GET /user/brand), or null before any is saved. */
export async function getBrandProfile(services: Services, user: { id: string }): Promise<Brand | null> {
  const row = await defaultRow(services.prisma, user.id);
  return row ? view(row) : null;
}

/** Fields stated twice (SPEC's two field sets): a save that sets one side replaces the stored pair. */
const PAIRS: [keyof BrandProfileInput, keyof BrandProfileInput][] = [
  ["name", "brandName"],
  ["tone", "brandVoice"],
  ["colors", "brandColors"],
];

/** The stored profile with a patch applied: a field set on one side of a pair drops the other's old value. */
function patched(stored: BrandProfileInput, patch: BrandProfileInput): BrandProfileInput {
  const next: BrandProfileInput = { ...stored };
  for (const [a, b] of PAIRS) {
    if (patch[a] !== undefined && patch[b] === undefined) delete next[b];
    if (patch[b] !== undefined && patch[a] === undefined) delete next[a];
  }
  const { brandKit, ...fields } = patch;
  Object.assign(next, fields);
  // A kit the user edited carries its colours and logo into the profile where those still came from the kit.
  return brandKit ? withBrandKit(next, brandKit, { colors: !!(patch.colors || patch.brandColors), logo: !!patch.logoUrl }) : next;
}

function profileFields<T extends BrandProfileInput>(input: T): BrandProfileInput {
  const { id: _id, makeDefault: _default, ...fields } = input as T & { id?: unknown; makeDefault?: unknown };
  return fields;
}

function requireSomeField(patch: BrandProfileInput) {
  if (Object.keys(patch).length === 0) throw new AppError("BAD_REQUEST", "Send at least one brand field (for example brandName or name)");
}

/** Saves (merging into) the account's default brand, creating it if there is none, and answers it with its id. */
export async function saveBrandProfile(
  services: Services,
  user: { id: string },
  source: AuditSource,
  input: BrandProfileInput,
): Promise<Brand> {
  const patch = parseInput(BrandProfileInput, input);
  requireSomeField(patch);
  const row = await services.prisma.$transaction(async (tx) => {
    await lockBrands(tx, user.id);
    const current = await defaultRow(tx, user.id);
    const merged = bothShapes(patched((current?.profile as BrandProfileInput | undefined) ?? {}, patch));
    const saved = current
      ? await tx.brandProfile.update({ where: { id: current.id }, data: { profile: merged as Prisma.InputJsonValue } })
      : await tx.brandProfile.create({ data: { userId: user.id, isDefault: true, profile: merged as Prisma.InputJsonValue } });
    await recordAudit(tx, source, { action: "brand.saved", targetType: "brand", targetId: saved.id });
    return saved;
  });
  return view(row);
}

/** Every brand of the account, the default first, then oldest first. */
export async function listBrands(services: Services, user: { id: string }): Promise<Brand[]> {
  const rows = await services.prisma.brandProfile.findMany({
    where: { userId: user.id },
    orderBy: [{ isDefault: "desc" }, { createdAt: "asc" }],
  });
  return rows.map(view);
}

async function ownBrand(db: Tx, userId: string, id: string) {
  const row = await db.brandProfile.findFirst({ where: { id, userId } });
  // Another account's brand is answered as if it did not exist.
  if (!row) throw Errors.notFound("Brand");
  return row;
}

/** One of the account's brands, or 404. */
export async function getBrand(services: Services, user: { id: string }, id: string): Promise<Brand> {
  return view(await ownBrand(services.prisma, user.id, id));
}

/** Adds a brand; the account's first brand (or one created with makeDefault) becomes the default. */
export async function createBrand(services: Services, user: { id: string }, source: AuditSource, input: BrandCreate): Promise<Brand> {
  const parsed = parseInput(BrandCreate, input);
  const patch = profileFields(parsed);
  requireSomeField(patch);
  if (!patch.name && !patch.brandName)
    throw new AppError("BAD_REQUEST", "name is required: give the brand a name", {
      fields: [{ field: "name", message: "name is required: give the brand a name" }],
    });
  const row = await services.prisma.$transaction(async (tx) => {
    await lockBrands(tx, user.id);
    const count = await tx.brandProfile.count({ where: { userId: user.id } });
    if (count >= MAX_BRANDS_PER_ACCOUNT) {
      throw new AppError(
        "BAD_REQUEST",
        `You already have ${MAX_BRANDS_PER_ACCOUNT} brands, the most an account can keep; delete one first`,
      );
    }
    const isDefault = count === 0 || parsed.makeDefault === true;
    if (isDefault) await tx.brandProfile.updateMany({ where: { userId: user.id, isDefault: true }, data: { isDefault: false } });
    const created = await tx.brandProfile.create({
      data: { userId: user.id, isDefault, profile: bothShapes(patch) as Prisma.InputJsonValue },
    });
    await recordAudit(tx, source, { action: "brand.created", targetType: "brand", targetId: created.id });
    return created;
  });
  return view(row);
}

/** Changes one of the account's brands (merging, like POST /user/brand), or makes it the default. */
export async function updateBrand(services: Services, user: { id: string }, source: AuditSource, input: BrandUpdate): Promise<Brand> {
  const parsed = parseInput(BrandUpdate, input);
  const patch = profileFields(parsed);
  if (Object.keys(patch).length === 0 && !parsed.makeDefault) {
    throw new AppError("BAD_REQUEST", "Send at least one brand field to change, or makeDefault: true");
  }
  const row = await services.prisma.$transaction(async (tx) => {
    await lockBrands(tx, user.id);
    const current = await ownBrand(tx, user.id, parsed.id);
    if (parsed.makeDefault) await tx.brandProfile.updateMany({ where: { userId: user.id, isDefault: true }, data: { isDefault: false } });
    const merged = bothShapes(patched(current.profile as BrandProfileInput, patch));
    const saved = await tx.brandProfile.update({
      where: { id: current.id },
      data: { profile: merged as Prisma.InputJsonValue, ...(parsed.makeDefault ? { isDefault: true } : {}) },
    });
    await recordAudit(tx, source, { action: "brand.saved", targetType: "brand", targetId: saved.id });
    return saved;
  });
  return view(row);
}

/** Deletes one of the account's brands; when it was the default, the oldest remaining brand becomes the default. */
export async function deleteBrand(services: Services, user: { id: string }, source: AuditSource, id: string): Promise<BrandDeleted> {
  return services.prisma.$transaction(async (tx) => {
    await lockBrands(tx, user.id);
    const row = await ownBrand(tx, user.id, id);
    await tx.brandProfile.delete({ where: { id: row.id } });
    let next = await defaultRow(tx, user.id);
    if (!next) {
      const oldest = await tx.brandProfile.findFirst({ where: { userId: user.id }, orderBy: { createdAt: "asc" } });
      next = oldest ? await tx.brandProfile.update({ where: { id: oldest.id }, data: { isDefault: true } }) : null;
    }
    await recordAudit(tx, source, { action: "brand.deleted", targetType: "brand", targetId: row.id });
    return { id: row.id, deleted: true as const, defaultBrandId: next?.id ?? null };
  });
}

const sameColors = (a: (string | undefined)[], b: (string | undefined)[]) =>
  a.length === b.length && a.every((color, i) => color?.toLowerCase() === b[i]?.toLowerCase());

/**
 * The profile with a new kit: the kit is stored as a whole; the profile's colours and logo come from it
 * only where the user has not set their own (empty, or still what the previous kit filled in), and not
 * where `explicit` says the same save sets them.
 */
export function withBrandKit(profile: BrandProfileInput, kit: BrandKit, explicit = { colors: false, logo: false }): BrandProfileInput {
  const previous = profile.brandKit;
  const next: BrandProfileInput = { ...profile, brandKit: kit };
  const current = [profile.colors?.primary, profile.colors?.secondary, profile.colors?.accent].filter(Boolean);
  const filledBefore = previous ? previous.colors.slice(0, current.length) : [];
  const userColors = explicit.colors || (current.length > 0 && !sameColors(current, filledBefore));
  if (!userColors && kit.colors.length > 0) {
    const [primary, secondary, accent] = kit.colors;
    next.colors = { primary, ...(secondary ? { secondary } : {}), ...(accent ? { accent } : {}) };
    delete next.brandColors;
  }
  const userLogo = explicit.logo || (Boolean(profile.logoUrl) && profile.logoUrl !== previous?.logoUrl);
  if (!userLogo && kit.logoUrl) next.logoUrl = kit.logoUrl;
  return next;
}

/**
 * Saves a brand job's kit to the brand the job names (else the account's default, created if there is
 * none), under the account's brand lock.
 */
export async function saveBrandKit(prisma: PrismaClient, userId: string, kit: BrandKit, brandId?: string): Promise<void> {
  await prisma.$transaction(async (tx) => {
    await lockBrands(tx, userId);
    const row = brandId ? await tx.brandProfile.findFirst({ where: { id: brandId, userId } }) : await defaultRow(tx, userId);
    const profile = bothShapes(withBrandKit((row?.profile as BrandProfileInput | undefined) ?? {}, kit)) as Prisma.InputJsonValue;
    if (row) await tx.brandProfile.update({ where: { id: row.id }, data: { profile } });
    else await tx.brandProfile.create({ data: { userId, isDefault: !(await defaultRow(tx, userId)), profile } });
    await recordAudit(
      tx,
      { actorId: null, ip: null },
      { action: "brand.kit_saved", actorId: userId, targetType: "brand", metadata: { sourceUrl: kit.sourceUrl } },
    );
  });
}

/**
 * The brand a job names (by id, owned by `userId`), else the account's default, for art direction; none for
 * NO_BRAND, whose ad is made from the page and the concept alone.
 */
export async function loadBrandForJob(
  db: Tx,
  userId: string,
  brandId: string | undefined,
): Promise<(BrandProfileInput & { id: string }) | null> {
  if (brandId === NO_BRAND) return null;
  const row = brandId ? await db.brandProfile.findFirst({ where: { id: brandId, userId } }) : await defaultRow(db, userId);
  return row ? { ...(row.profile as BrandProfileInput), id: row.id } : null;
}

// The account's brand profile (SPEC 2.4). Either stated field set may be sent; the saved profile
// answers both, so old and new clients read what they wrote. Art direction reads it by id. A brand
// (Brand Clone) job adds the kit it read from the brand's site (`saveBrandKit`); the user edits it like
// any other field.
import type { Prisma, PrismaClient } from "@adgen/prisma";
import { type BrandKit, type BrandProfile, BrandProfileInput } from "@adgen/schema";
import type { RequestContext, Tx } from "../../context.ts";
import { AppError, parseInput } from "../../errors.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { requireUser } from "../auth/authenticate.ts";

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

function view(row: { id: string; profile: unknown; updatedAt: Date }): BrandProfile {
  return { ...(row.profile as BrandProfileInput), id: row.id, updatedAt: row.updatedAt.toISOString() };
}

export async function getBrandProfile(ctx: RequestContext): Promise<BrandProfile | null> {
  const user = requireUser(ctx);
  const row = await ctx.services.prisma.brandProfile.findUnique({ where: { userId: user.id } });
  return row ? view(row) : null;
}

/**
 * The account's stored profile, its row locked until the transaction ends, so a user's save and a brand
 * job's kit never overwrite each other's fields.
 */
async function lockedProfile(tx: Tx, userId: string): Promise<BrandProfileInput> {
  const rows = await tx.$queryRaw<{ profile: unknown }[]>`SELECT profile FROM brand_profiles WHERE user_id = ${userId} FOR UPDATE`;
  return (rows[0]?.profile as BrandProfileInput | undefined) ?? {};
}

function upsertProfile(tx: Tx, userId: string, profile: BrandProfileInput) {
  return tx.brandProfile.upsert({
    where: { userId },
    create: { userId, profile: profile as Prisma.InputJsonValue },
    update: { profile: profile as Prisma.InputJsonValue },
  });
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

/** Saves (merging into) the account's profile and answers it with its id. */
export async function saveBrandProfile(ctx: RequestContext, input: BrandProfileInput): Promise<BrandProfile> {
  const user = requireUser(ctx);
  const patch = parseInput(BrandProfileInput, input);
  if (Object.keys(patch).length === 0) throw new AppError("BAD_REQUEST", "Send at least one brand field (for example brandName or name)");
  const row = await ctx.services.prisma.$transaction(async (tx) => {
    const merged = bothShapes(patched(await lockedProfile(tx, user.id), patch));
    const saved = await upsertProfile(tx, user.id, merged);
    await recordAudit(tx, ctx, { action: "brand.saved", targetType: "brand", targetId: saved.id });
    return saved;
  });
  return view(row);
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
 * Saves a brand job's kit to the account's profile (creating the profile if it has none), in one
 * transaction with the profile's row locked (an account has one profile, which a job's `brand` names).
 */
export async function saveBrandKit(prisma: PrismaClient, userId: string, kit: BrandKit): Promise<void> {
  await prisma.$transaction(async (tx) => {
    const profile = await lockedProfile(tx, userId);
    await upsertProfile(tx, userId, bothShapes(withBrandKit(profile, kit)));
    await recordAudit(
      tx,
      { ip: null, auth: null },
      { action: "brand.kit_saved", actorId: userId, targetType: "brand", metadata: { sourceUrl: kit.sourceUrl } },
    );
  });
}

/** The profile a job names (by id, owned by `userId`), for art direction. */
export async function loadBrandForJob(
  db: Tx,
  userId: string,
  brandId: string | undefined,
): Promise<(BrandProfileInput & { id: string }) | null> {
  const row = brandId
    ? await db.brandProfile.findFirst({ where: { id: brandId, userId } })
    : await db.brandProfile.findUnique({ where: { userId } });
  return row ? { ...(row.profile as BrandProfileInput), id: row.id } : null;
}

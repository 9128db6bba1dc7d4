// The account's brand profile (SPEC 2.4). Either stated field set may be sent; the saved profile
// answers both, so old and new clients read what they wrote. Art direction reads it by id.
import type { Prisma } from "@adgen/prisma";
import { type BrandProfile, BrandProfileInput } from "@adgen/schema";
import type { RequestContext, Tx } from "../../context.ts";
import { AppError, parseInput } from "../../errors.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { requireUser } from "../auth/authenticate.ts";

const withHash = (c: string) => (c.startsWith("#") ? c : `#${c}`).toLowerCase();

/** Fills each field set from the other so both read the same profile. */
function bothShapes(input: BrandProfileInput): BrandProfileInput & { audience?: string } {
  const listed = input.brandColors?.split(",").map((c) => withHash(c.trim())) ?? [];
  const colors = {
    primary: input.colors?.primary ? withHash(input.colors.primary) : listed[0],
    secondary: input.colors?.secondary ? withHash(input.colors.secondary) : listed[1],
    accent: input.colors?.accent ? withHash(input.colors.accent) : listed[2],
  };
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

/** Saves (merging into) the account's profile and answers it with its id. */
export async function saveBrandProfile(ctx: RequestContext, input: BrandProfileInput): Promise<BrandProfile> {
  const user = requireUser(ctx);
  const patch = parseInput(BrandProfileInput, input);
  if (Object.keys(patch).length === 0) throw new AppError("BAD_REQUEST", "Send at least one brand field (for example brandName or name)");
  const { prisma } = ctx.services;
  const existing = await prisma.brandProfile.findUnique({ where: { userId: user.id } });
  const merged = bothShapes({ ...((existing?.profile as BrandProfileInput | undefined) ?? {}), ...patch });
  const row = await prisma.$transaction(async (tx) => {
    const saved = await tx.brandProfile.upsert({
      where: { userId: user.id },
      create: { userId: user.id, profile: merged as Prisma.InputJsonValue },
      update: { profile: merged as Prisma.InputJsonValue },
    });
    await recordAudit(tx, ctx, { action: "brand.saved", targetType: "brand", targetId: saved.id });
    return saved;
  });
  return view(row);
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

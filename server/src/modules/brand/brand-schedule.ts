// The account's publishing schedule: platforms, weekdays, times (HH:MM), an IANA time zone and a
// frequency. Stored whole on every save (the form sends every field); `publish` launches follow it.
import { auditSourceOf } from "../../request-context.ts";
import type { Prisma } from "@adgen/prisma";
import { type BrandSchedule, BrandScheduleInput } from "@adgen/schema";
import type { RequestContext } from "../../request-context.ts";
import { parseInput } from "../../errors.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { requireUser } from "../auth/authenticate.ts";

function view(row: { schedule: unknown; updatedAt: Date }): BrandSchedule {
  return { ...(row.schedule as BrandScheduleInput), updatedAt: row.updatedAt.toISOString() };
}

/** The account's schedule, or null before one is saved. */
export async function getBrandSchedule(ctx: RequestContext): Promise<BrandSchedule | null> {
  const user = requireUser(ctx);
  const row = await ctx.services.prisma.brandSchedule.findUnique({ where: { userId: user.id } });
  return row ? view(row) : null;
}

export async function saveBrandSchedule(ctx: RequestContext, input: BrandScheduleInput): Promise<BrandSchedule> {
  const user = requireUser(ctx);
  const schedule = parseInput(BrandScheduleInput, input) as Prisma.InputJsonValue;
  const row = await ctx.services.prisma.$transaction(async (tx) => {
    const saved = await tx.brandSchedule.upsert({
      where: { userId: user.id },
      create: { userId: user.id, schedule },
      update: { schedule },
    });
    await recordAudit(tx, auditSourceOf(ctx), { action: "brand.schedule_saved", targetType: "brand_schedule", targetId: user.id });
    return saved;
  });
  return view(row);
}

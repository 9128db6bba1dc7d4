// The account's publishing schedule: platforms, weekdays, times (HH:MM), an IANA time zone and a
// frequency. Stored whole on every save (the form sends every field); `publish` launches follow it.
import type { Prisma } from "@adgen/prisma";
import { type BrandSchedule, BrandScheduleInput } from "@adgen/schema";
import type { Services } from "../../request-context.ts";
import { parseInput } from "../../errors.ts";
import { type AuditSource, recordAudit } from "../audit/record-audit.ts";

function view(row: { schedule: unknown; updatedAt: Date }): BrandSchedule {
  return { ...(row.schedule as BrandScheduleInput), updatedAt: row.updatedAt.toISOString() };
}

/** The account's schedule, or null before one is saved. */
export async function getBrandSchedule(services: Services, user: { id: string }): Promise<BrandSchedule | null> {
  const row = await services.prisma.brandSchedule.findUnique({ where: { userId: user.id } });
  return row ? view(row) : null;
}

export async function saveBrandSchedule(
  services: Services,
  user: { id: string },
  source: AuditSource,
  input: BrandScheduleInput,
): Promise<BrandSchedule> {
  const schedule = parseInput(BrandScheduleInput, input) as Prisma.InputJsonValue;
  const row = await services.prisma.$transaction(async (tx) => {
    const saved = await tx.brandSchedule.upsert({
      where: { userId: user.id },
      create: { userId: user.id, schedule },
      update: { schedule },
    });
    await recordAudit(tx, source, { action: "brand.schedule_saved", targetType: "brand_schedule", targetId: user.id });
    return saved;
  });
  return view(row);
}

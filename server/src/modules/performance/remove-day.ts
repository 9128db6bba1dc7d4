// Removing one day's entered figures: the way back from a row typed for the wrong creative or day. Only
// the ingested row goes; events a pixel recorded are facts, not entries, and stay.
import { PerformanceRemoveInput, type PerformanceRemoved } from "@adgen/schema";
import type { Services } from "../../request-context.ts";
import { AppError, parseInput } from "../../errors.ts";
import { findCreative } from "./creatives.ts";

export async function removePerformanceDay(
  services: Services,
  user: { id: string },
  input: PerformanceRemoveInput,
): Promise<PerformanceRemoved> {
  const body = parseInput(PerformanceRemoveInput, input);
  return services.prisma.$transaction(async (tx) => {
    const creative = await findCreative(tx, user.id, body.creativeId);
    const day = new Date(`${body.date}T00:00:00.000Z`);
    const removed = await tx.performanceMetric.deleteMany({ where: { creativeId: creative.id, day } });
    if (removed.count === 0)
      throw new AppError("NOT_FOUND", `No figures were entered for ${body.creativeId} on ${body.date}, so there is nothing to remove`);
    return { creativeId: body.creativeId, date: body.date, removed: true as const };
  });
}

// Writing figures: a day's or a period's ingest (POST), its correction (PATCH) and single events (POST
// /performance). An ingest names a day once: a second ingest of the same creative and day with other
// figures is a conflict (correct it with PATCH), the same figures again are a harmless repeat. A period
// (from..to) is stored as its days' even shares (period.ts, period-ingest.ts).
import type { PerformanceMetric } from "@adgen/prisma";
import { PerformanceCorrectInput, PerformanceEventInput, PerformanceIngestInput, type PerformanceIngested } from "@adgen/schema";
import type { Services } from "../../request-context.ts";
import { AppError, isUniqueViolation, parseInput } from "../../errors.ts";
import { findCreative, resolveCreative } from "./creatives.ts";
import { figuresOf, refuseImpossibleFigures, toCents } from "./figures.ts";
import { correctPeriod, ingestPeriod } from "./period-ingest.ts";

const today = () => new Date().toISOString().slice(0, 10);
const dayDate = (day: string) => new Date(`${day}T00:00:00.000Z`);

function ingested(creative: { key: string; jobId: string | null; brandId: string | null }, row: PerformanceMetric): PerformanceIngested {
  return {
    creativeId: creative.key,
    projectId: creative.jobId,
    brandId: creative.brandId,
    date: row.day.toISOString().slice(0, 10),
    figures: figuresOf({
      impressions: row.impressions,
      clicks: row.clicks,
      conversions: row.conversions,
      spendCents: Number(row.spendCents),
      revenueCents: Number(row.revenueCents),
    }),
  };
}

export async function ingestPerformance(
  services: Services,
  user: { id: string },
  input: PerformanceIngestInput,
): Promise<PerformanceIngested> {
  const body = parseInput(PerformanceIngestInput, input);
  const day = body.date ?? today();
  const figures = {
    impressions: body.impressions,
    clicks: body.clicks,
    conversions: body.conversions,
    spendCents: BigInt(toCents(body.spend)),
    revenueCents: BigInt(toCents(body.revenue)),
  };
  const { from, to } = body;
  if (from && to) {
    const totals = { ...figures, spendCents: Number(figures.spendCents), revenueCents: Number(figures.revenueCents) };
    return services.prisma.$transaction(async (tx) =>
      ingestPeriod(tx, await resolveCreative(tx, user.id, body.creativeId, body.brandId), { from, to }, totals),
    );
  }
  return services.prisma.$transaction(async (tx) => {
    const creative = await resolveCreative(tx, user.id, body.creativeId, body.brandId);
    const earlier = await tx.performanceMetric.findUnique({ where: { creativeId_day: { creativeId: creative.id, day: dayDate(day) } } });
    if (earlier) {
      const same = (Object.keys(figures) as (keyof typeof figures)[]).every((k) => earlier[k] === figures[k]);
      if (!same)
        throw new AppError(
          "CONFLICT",
          `Figures for ${body.creativeId} on ${day} were already ingested; correct them with PATCH /api/workflow/performance`,
        );
      return ingested(creative, earlier);
    }
    const row = await tx.performanceMetric.create({ data: { creativeId: creative.id, day: dayDate(day), ...figures } });
    return ingested(creative, row);
  });
}

export async function correctPerformance(
  services: Services,
  user: { id: string },
  input: PerformanceCorrectInput,
): Promise<PerformanceIngested> {
  const body = parseInput(PerformanceCorrectInput, input);
  const day = body.date ?? today();
  const changes = {
    ...(body.impressions !== undefined ? { impressions: body.impressions } : {}),
    ...(body.clicks !== undefined ? { clicks: body.clicks } : {}),
    ...(body.conversions !== undefined ? { conversions: body.conversions } : {}),
    ...(body.spend !== undefined ? { spendCents: BigInt(toCents(body.spend)) } : {}),
    ...(body.revenue !== undefined ? { revenueCents: BigInt(toCents(body.revenue)) } : {}),
  };
  if (Object.keys(changes).length === 0)
    throw new AppError("BAD_REQUEST", "Give at least one figure to correct: impressions, clicks, conversions, spend or revenue");
  const { from, to } = body;
  if (from && to) {
    const totals = {
      ...(body.impressions !== undefined ? { impressions: body.impressions } : {}),
      ...(body.clicks !== undefined ? { clicks: body.clicks } : {}),
      ...(body.conversions !== undefined ? { conversions: body.conversions } : {}),
      ...(body.spend !== undefined ? { spendCents: toCents(body.spend) } : {}),
      ...(body.revenue !== undefined ? { revenueCents: toCents(body.revenue) } : {}),
    };
    return services.prisma.$transaction(async (tx) =>
      correctPeriod(tx, await findCreative(tx, user.id, body.creativeId), { from, to }, totals),
    );
  }
  return services.prisma.$transaction(async (tx) => {
    const creative = await findCreative(tx, user.id, body.creativeId);
    const earlier = await tx.performanceMetric.findUnique({ where: { creativeId_day: { creativeId: creative.id, day: dayDate(day) } } });
    if (!earlier) throw new AppError("NOT_FOUND", `No figures for ${body.creativeId} on ${day} to correct; ingest them with POST first`);
    refuseImpossibleFigures({ ...earlier, ...changes });
    const row = await tx.performanceMetric.update({ where: { id: earlier.id }, data: changes });
    return ingested(creative, row);
  });
}

export async function recordPerformanceEvent(services: Services, user: { id: string }, input: PerformanceEventInput) {
  const body = parseInput(PerformanceEventInput, input);
  if (body.value !== undefined && body.type !== "conversion")
    throw new AppError("BAD_REQUEST", "Only a conversion has a value: leave value out of impressions and clicks", {
      fields: [{ field: "value", message: "Only a conversion has a value" }],
    });
  const { prisma } = services;
  const seen = await prisma.performanceEvent.findUnique({ where: { userId_eventId: { userId: user.id, eventId: body.eventId } } });
  if (seen) return { eventId: body.eventId, creativeId: body.creativeId, recorded: false };
  try {
    await prisma.$transaction(async (tx) => {
      const creative = await resolveCreative(tx, user.id, body.creativeId, body.brandId);
      await tx.performanceEvent.create({
        data: {
          userId: user.id,
          eventId: body.eventId,
          creativeId: creative.id,
          kind: body.type,
          valueCents: BigInt(toCents(body.value ?? 0)),
          occurredAt: body.occurredAt ? new Date(body.occurredAt) : new Date(),
        },
      });
    });
  } catch (error) {
    // The same event sent twice at once: the unique (user, event id) keeps one.
    if (isUniqueViolation(error)) return { eventId: body.eventId, creativeId: body.creativeId, recorded: false };
    throw error;
  }
  return { eventId: body.eventId, creativeId: body.creativeId, recorded: true };
}

// GET /admin/funnel: of the accounts that signed up in a period, how many went on to each next stage,
// counted from what the service recorded (audit events, jobs, the ledger). The funnel is strict: an account
// counts at a stage only if it reached every stage before it, so each conversion is at most 100 %.
import { type AdminFunnel, type AdminPeriodQuery, FUNNEL_STAGES } from "@adgen/schema";
import type { z } from "zod";
import type { Services } from "../../request-context.ts";
import type { AuditSource } from "../audit/record-audit.ts";
import { LedgerReason } from "../credits/ledger.ts";
import { auditAdminRead } from "../audit/admin-audit.ts";
import { HOUSE_EMAIL } from "./marketing.ts";
import { parsePeriod, periodView } from "./period.ts";

export const FUNNEL_DEFINITIONS: Record<(typeof FUNNEL_STAGES)[number], string> = {
  signup: "accounts created in the period (not the house account that makes the service's own ads)",
  login: "of those, signed in again after signing up, or used the studio (which needs a signed-in session)",
  studio: "of those, launched at least one workflow",
  generate: "of those, had at least one workflow complete",
  purchase: "of those, paid for an order (credits or a plan)",
};

export type StageCounts = Record<(typeof FUNNEL_STAGES)[number], number>;

/** Percent with one decimal; null when the base is 0. */
export const percent = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 1000) / 10);

/** The funnel's arithmetic: each stage against the one before it and against the signups. */
export function funnelStages(counts: StageCounts): AdminFunnel["stages"] {
  return FUNNEL_STAGES.map((stage, i) => ({
    stage,
    definition: FUNNEL_DEFINITIONS[stage],
    count: counts[stage],
    conversionFromPrevious: i === 0 ? null : percent(counts[stage], counts[FUNNEL_STAGES[i - 1]!]),
    conversionFromStart: percent(counts[stage], counts.signup),
  }));
}

export async function adminFunnel(services: Services, source: AuditSource, input: z.input<typeof AdminPeriodQuery>): Promise<AdminFunnel> {
  const period = parsePeriod(input);
  const { from, to } = period;
  const [row] = await services.prisma.$queryRaw<StageCounts[]>`
    WITH flags AS (
      SELECT
        EXISTS (SELECT 1 FROM audit_log a WHERE a.actor_id = u.id AND a.action = 'auth.login' AND a.created_at < ${to}) AS login,
        EXISTS (SELECT 1 FROM jobs j WHERE j.user_id = u.id AND j.created_at < ${to}) AS studio,
        EXISTS (SELECT 1 FROM jobs j WHERE j.user_id = u.id AND j.status = 'completed' AND j.created_at < ${to}) AS generate,
        (EXISTS (SELECT 1 FROM orders o WHERE o.user_id = u.id AND o.status IN ('paid', 'refunded') AND o.paid_at < ${to})
          OR EXISTS (SELECT 1 FROM credit_ledger l WHERE l.user_id = u.id AND l.reason = ${LedgerReason.purchase} AND l.created_at < ${to})) AS purchase
      FROM users u
      WHERE u.created_at >= ${from} AND u.created_at < ${to} AND u.email <> ${HOUSE_EMAIL}
    )
    SELECT
      count(*)::int AS signup,
      count(*) FILTER (WHERE login OR studio)::int AS login,
      count(*) FILTER (WHERE studio)::int AS studio,
      count(*) FILTER (WHERE studio AND generate)::int AS generate,
      count(*) FILTER (WHERE studio AND generate AND purchase)::int AS purchase
    FROM flags`;
  const counts = Object.fromEntries(FUNNEL_STAGES.map((stage) => [stage, Number(row?.[stage] ?? 0)])) as StageCounts;
  await auditAdminRead(services, source, "admin.funnel_viewed", periodView(period));
  return { period: periodView(period), stages: funnelStages(counts) };
}

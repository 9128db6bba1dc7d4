// GET /api/integrity: checks the service's own bookkeeping and answers counts with a few examples each:
//   - every account's cached balance equals the sum of its ledger rows;
//   - media files no job (or brand library row, or export) owns, and finished jobs whose files are gone
//     (media-checks.ts);
//   - jobs still `processing` with a lease older than JOB_LEASE_SECONDS (the orphan sweep missed them);
//   - refunds whose job was never charged.
import type { IntegrityReport } from "@adgen/schema";
import type { Services } from "../../request-context.ts";
import type { AuditSource } from "../audit/record-audit.ts";
import { auditAdminRead } from "../audit/admin-audit.ts";
import { LedgerReason } from "../credits/ledger.ts";
import { jobsWithMissingFiles, orphanedMedia } from "./media-checks.ts";

const EXAMPLES = 10;

const finding = <T>(all: T[]) => ({ count: all.length, examples: all.slice(0, EXAMPLES) });

async function ledgerMismatches(services: Services) {
  const rows = await services.prisma.$queryRaw<{ userId: string; email: string; balance: number; ledgerSum: number }[]>`
    SELECT u.id AS "userId", u.email, u.credits_balance AS balance, COALESCE(l.total, 0)::int AS "ledgerSum"
    FROM users u LEFT JOIN (SELECT user_id, sum(delta) AS total FROM credit_ledger GROUP BY user_id) l ON l.user_id = u.id
    WHERE u.credits_balance <> COALESCE(l.total, 0)
    ORDER BY u.created_at`;
  return rows.map((row) => ({ ...row, balance: Number(row.balance), ledgerSum: Number(row.ledgerSum) }));
}

async function refundsWithoutCharge(services: Services) {
  return services.prisma.$queryRaw<{ entryId: string; userId: string; reference: string | null; delta: number }[]>`
    SELECT r.id AS "entryId", r.user_id AS "userId", r.reference, r.delta
    FROM credit_ledger r
    WHERE r.reason = ${LedgerReason.workflowRefund}
      AND NOT EXISTS (
        SELECT 1 FROM credit_ledger c
        WHERE c.reason = ${LedgerReason.workflowCharge} AND c.user_id = r.user_id AND c.reference = r.reference)
    ORDER BY r.created_at`;
}

async function stuckJobs(services: Services) {
  const rows = await services.prisma.job.findMany({
    where: {
      status: "processing",
      leaseOwner: { not: null },
      heartbeatAt: { lt: new Date(Date.now() - services.config.jobLeaseSeconds * 1000) },
    },
    select: { id: true, status: true, heartbeatAt: true },
    orderBy: { heartbeatAt: "asc" },
  });
  return rows.map((job) => ({ jobId: job.id, status: job.status, heartbeatAt: job.heartbeatAt?.toISOString() ?? null }));
}

export async function integrityReport(services: Services): Promise<IntegrityReport> {
  const [accounts, ledger, refunds, stuck, orphans, missing] = await Promise.all([
    services.prisma.user.count(),
    ledgerMismatches(services),
    refundsWithoutCharge(services),
    stuckJobs(services),
    orphanedMedia(services),
    jobsWithMissingFiles(services),
  ]);
  return {
    ok: ledger.length + refunds.length + stuck.length + orphans.length + missing.length === 0,
    checkedAt: new Date().toISOString(),
    accountsChecked: accounts,
    ledgerMismatches: finding(ledger),
    orphanedMediaFiles: finding(orphans),
    jobsWithMissingFiles: finding(missing),
    jobsStuckPastLease: finding(stuck),
    refundsWithoutCharge: finding(refunds.map((row) => ({ ...row, delta: Number(row.delta) }))),
  };
}

export async function checkIntegrity(services: Services, source: AuditSource): Promise<IntegrityReport> {
  const report = await integrityReport(services);
  await auditAdminRead(services, source, "admin.integrity_checked", { ok: report.ok });
  return report;
}

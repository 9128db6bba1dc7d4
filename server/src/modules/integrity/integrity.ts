// GET /api/integrity: checks the service's own bookkeeping and answers counts with a few examples each:
//   - every account's cached balance equals the sum of its ledger rows;
//   - media files no job (or brand library row, or export) owns, and finished jobs whose files are gone;
//   - jobs still `processing` with a lease older than JOB_LEASE_SECONDS (the orphan sweep missed them);
//   - refunds whose job was never charged.
import type { IntegrityReport } from "@adgen/schema";
import type { Services } from "../../request-context.ts";
import type { AuditSource } from "../audit/record-audit.ts";
import { auditAdminRead } from "../audit/admin-audit.ts";
import { LedgerReason } from "../credits/ledger.ts";

const EXAMPLES = 10;
/** Finished jobs whose files are checked, newest first (each check is one stat). */
const JOBS_CHECKED = 2000;

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

/** Files in the store's `jobs/`, `brand/` and `exports/` folders whose owning row does not exist (or was refunded). */
async function orphanedMedia(services: Services) {
  const [jobFiles, brandFiles, exportFiles] = await Promise.all([
    services.media.list("jobs"),
    services.media.list("brand"),
    services.media.list("exports"),
  ]);
  const jobIds = [...new Set(jobFiles.map((file) => file.key.split("/")[1]!))];
  const liveJobs = new Set(
    (await services.prisma.job.findMany({ where: { id: { in: jobIds }, refundedAt: null }, select: { id: true } })).map((job) => job.id),
  );
  const brandKeys = new Set(
    (
      await services.prisma.brandMedia.findMany({ where: { fileKey: { in: brandFiles.map((f) => f.key) } }, select: { fileKey: true } })
    ).map((row) => row.fileKey),
  );
  const exportKeys = new Set(
    (
      await services.prisma.exportRequest.findMany({ where: { fileKey: { in: exportFiles.map((f) => f.key) } }, select: { fileKey: true } })
    ).map((row) => row.fileKey),
  );
  return [
    ...jobFiles.filter((file) => !liveJobs.has(file.key.split("/")[1]!)),
    ...brandFiles.filter((file) => !brandKeys.has(file.key)),
    // An export's scratch files live under `.work/`; only finished archives are here.
    ...exportFiles.filter((file) => !exportKeys.has(file.key)),
  ];
}

/** Completed, unrefunded jobs whose result names a file of their own that the store does not have. */
async function jobsWithMissingFiles(services: Services) {
  const jobs = await services.prisma.job.findMany({
    where: { status: "completed", refundedAt: null },
    select: { id: true, result: true },
    orderBy: { createdAt: "desc" },
    take: JOBS_CHECKED,
  });
  const out: { jobId: string; missing: string[] }[] = [];
  for (const job of jobs) {
    const files = new Set<string>();
    const own = new RegExp(`/api/media/${job.id}/([A-Za-z0-9._-]+)$`);
    const assets = (job.result as { assets?: { url?: unknown; thumbnail?: unknown }[] } | null)?.assets;
    for (const asset of Array.isArray(assets) ? assets : []) {
      for (const url of [asset?.url, asset?.thumbnail]) {
        const match = typeof url === "string" ? url.match(own) : null;
        if (match && !match[1]!.startsWith(".")) files.add(match[1]!);
      }
    }
    const missing: string[] = [];
    for (const file of files) if (!(await services.media.stat(`jobs/${job.id}/${file}`))) missing.push(file);
    if (missing.length) out.push({ jobId: job.id, missing });
  }
  return out;
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

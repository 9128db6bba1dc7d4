// local-audit: the page is read with its ad-readiness signals, scored (`audit`), written up as a PDF
// (`audit_report`), and a short ad is rendered as usual.
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { type AuditReport, type OutputAsset, STEP, type WorkflowRequest } from "@adgen/schema";
import { jobMediaKey } from "../../../../media/storage.ts";
import { writeAuditPdf } from "../audit-pdf.ts";
import { auditPage } from "../local-audit.ts";
import type { PageFacts, PipelineStep } from "../step-types.ts";

/** Whether the page reader should also collect the ad-readiness signals. */
export const wantsPageSignals = (request: WorkflowRequest) => request.type === "local-audit";

/** local-audit: scores the page read by read_page. */
export const auditStep: PipelineStep = {
  name: STEP.audit,
  weight: 5,
  async run({ outputs }) {
    const page = outputs.get(STEP.readPage) as PageFacts;
    return auditPage(page) satisfies AuditReport;
  },
};

export interface AuditReportOutput {
  key: string;
  bytes: number;
}

/** local-audit: the scored report as a PDF among the job's media. */
export const auditReportStep: PipelineStep = {
  name: STEP.auditReport,
  weight: 5,
  async run({ services, job, outputs }) {
    const report = outputs.get(STEP.audit) as AuditReport;
    const page = outputs.get(STEP.readPage) as PageFacts | undefined;
    const dir = await services.media.scratchDir(`${job.id}/audit`);
    try {
      const file = join(dir, "audit-report.pdf");
      await writeAuditPdf(report, page?.title ?? null, file);
      const key = jobMediaKey(job.id, "audit-report.pdf");
      const stored = await services.media.put(key, file);
      return { key, bytes: stored.bytes } satisfies AuditReportOutput;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};

/** A local audit's additions to the result: its scored report and the PDF as a `document` asset. */
export function localAuditResult(
  outputs: Map<string, unknown>,
  assets: OutputAsset[],
  url: (key: string) => string,
): { assets: OutputAsset[]; audit?: AuditReport } {
  const report = outputs.get(STEP.audit) as AuditReport | undefined;
  const pdf = outputs.get(STEP.auditReport) as AuditReportOutput | undefined;
  if (!report) return { assets };
  const reportUrl = pdf ? url(pdf.key) : null;
  const document: OutputAsset[] = reportUrl ? [{ url: reportUrl, type: "document", format: "pdf", duration: 0, platform: "report" }] : [];
  return { assets: [...assets, ...document], audit: { ...report, reportUrl } };
}

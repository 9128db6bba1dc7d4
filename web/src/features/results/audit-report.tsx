// A local audit's scored report: the overall score and grade, each criterion with its score, what the
// page has and lacks, and the most useful change; with the PDF of the same report.
import type { AuditReport as AuditReportData } from "@adgen/schema";
import { formatDateTime } from "../../lib/format.ts";
import { mediaSrc } from "../../lib/workflow.ts";
import { DownloadLink } from "./download-link.tsx";

function tone(score: number): "good" | "fair" | "weak" {
  return score >= 75 ? "good" : score >= 50 ? "fair" : "weak";
}

export function AuditReport({ audit, pdfUrl }: { audit: AuditReportData; pdfUrl: string | null }) {
  return (
    <section className="result-section audit-report" aria-labelledby="audit-title" data-testid="audit-report">
      <div className="audit-head">
        <div className={`audit-score audit-tone-${tone(audit.overallScore)}`}>
          <span className="audit-grade" data-testid="audit-grade">
            <span className="visually-hidden">Grade </span>
            {audit.grade}
          </span>
          <span className="audit-overall">
            <strong data-testid="audit-score">{audit.overallScore}</strong>/100
          </span>
        </div>
        <div className="audit-intro">
          <h3 id="audit-title" className="result-section-title">
            Ad-readiness audit
          </h3>
          <p className="muted audit-url">
            <a href={audit.url} target="_blank" rel="noreferrer noopener">
              {audit.url}
            </a>{" "}
            · {formatDateTime(audit.auditedAt)}
          </p>
          {pdfUrl ? (
            <div className="result-actions">
              <a className="btn btn-secondary btn-small" href={mediaSrc(pdfUrl)} target="_blank" rel="noreferrer" data-testid="audit-pdf">
                Open the PDF report
              </a>
              <DownloadLink url={pdfUrl} testId="download-audit-pdf">
                Download PDF
              </DownloadLink>
            </div>
          ) : null}
        </div>
      </div>
      {!audit.pageLoaded ? (
        <p className="alert alert-warning" role="status">
          The page could not be loaded, so every criterion scores 0. Check the address is public and try again.
        </p>
      ) : null}
      <ol className="audit-criteria">
        {audit.criteria.map((c) => (
          <li key={c.id} className={`audit-criterion audit-tone-${tone(c.score)}`} data-testid={`audit-criterion-${c.id}`}>
            <div className="audit-criterion-head">
              <span className="audit-criterion-name">{c.name}</span>
              <span className="audit-criterion-score mono">
                {c.score}/100 <span className="muted">· weight {c.weight}%</span>
              </span>
            </div>
            <span className="audit-bar" aria-hidden="true">
              <span style={{ width: `${Math.max(0, Math.min(100, c.score))}%` }} />
            </span>
            {c.findings.length ? (
              <ul className="audit-findings">
                {c.findings.map((f) => (
                  <li key={f}>{f}</li>
                ))}
              </ul>
            ) : null}
            <p className="audit-recommendation">
              <strong>Do next:</strong> {c.recommendation}
            </p>
          </li>
        ))}
      </ol>
    </section>
  );
}

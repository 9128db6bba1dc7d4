// /report: send a notice about content made here (EU Digital Services Act). A project page links here
// with `?target=<project id>`; anyone signed in may report any project or media address.
import { useSearchParams } from "wouter";
import { ReportForm } from "./report-form.tsx";
import { useTitle } from "../../lib/hooks.ts";
import type { PageProps } from "../../page-props.ts";

export function ReportPage({ session }: PageProps) {
  useTitle("Report content");
  const [params] = useSearchParams();
  return (
    <div className="page page-narrow">
      <header className="page-header">
        <div>
          <h1 className="page-title">Report content</h1>
          <p className="page-subtitle muted">
            Tell us about an ad made here that you believe is illegal or breaks our terms. A moderator reviews every notice, decides with a
            statement of reasons, and tells you the outcome.
          </p>
        </div>
      </header>
      <section className="card">
        <ReportForm initialTarget={params.get("target") ?? ""} defaultEmail={session.email} />
      </section>
    </div>
  );
}

// /report: send a notice about content made here (EU Digital Services Act). A project page links here
// with `?target=<project id>`; anyone signed in may report any project or media address.
import { useSearchParams } from "wouter";
import { ReportForm } from "./report-form.tsx";
import { useTitle } from "../../lib/hooks.ts";
import type { PageProps } from "../../page-props.ts";
import { PageHeader } from "../../ui/page-header.tsx";

export function ReportPage({ session }: PageProps) {
  useTitle("Report content");
  const [params] = useSearchParams();
  return (
    <div className="page page-narrow">
      <PageHeader
        title="Report content"
        subtitle={
          <>
            Tell us about an ad made here that you believe is illegal or breaks our terms. A moderator reviews every notice, decides with a
            statement of reasons, and tells you the outcome.
          </>
        }
      />
      <section className="card">
        <ReportForm initialTarget={params.get("target") ?? ""} defaultEmail={session.email} />
      </section>
    </div>
  );
}

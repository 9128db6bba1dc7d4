// Leads: add one (validated; an e-mail already listed adds nothing) and browse them, newest first.
import { LeadInput } from "@adgen/schema";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { AdminNav } from "./admin-nav.tsx";
import { Field, FormAlert, FormSuccess } from "../../ui/form.tsx";
import { InlineError, Spinner } from "../../ui/status.tsx";
import { errorMessage } from "../../lib/errors.ts";
import { formatDate, formatNumber } from "../../lib/format.ts";
import { useDebounced, useTitle } from "../../lib/hooks.ts";
import { useTRPC } from "../../trpc.ts";
import { Pagination } from "../../ui/pagination.tsx";
import "./admin.css";
import "./admin-console.css";
import { Email } from "../../ui/email.tsx";
import { SearchBox } from "../../ui/search-box.tsx";
import { TableNoteRow } from "../../ui/table-note-row.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { TableHead } from "../../ui/table-head.tsx";

const PAGE_SIZE = 25;

function AddLeadForm() {
  const uid = useId();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [company, setCompany] = useState("");
  const [emailError, setEmailError] = useState<string | undefined>();
  const [done, setDone] = useState<string | null>(null);
  const add = useMutation(trpc.admin.addLead.mutationOptions());

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setDone(null);
    add.reset();
    const parsed = LeadInput.safeParse({ email, name: name.trim() || undefined, company: company.trim() || undefined });
    if (!parsed.success) {
      setEmailError(parsed.error.issues.find((i) => i.path[0] === "email")?.message ?? parsed.error.issues[0]?.message);
      return;
    }
    setEmailError(undefined);
    try {
      const answer = await add.mutateAsync(parsed.data);
      setDone(
        answer.created
          ? `Added ${answer.lead.email}.`
          : `${answer.lead.email} is already a lead; nothing was added (empty fields were filled in).`,
      );
      setEmail("");
      setName("");
      setCompany("");
      await queryClient.invalidateQueries({ queryKey: trpc.admin.leads.queryKey() });
    } catch {
      // Shown under the form.
    }
  }

  return (
    <section className="card" aria-labelledby={`${uid}-title`}>
      <h2 id={`${uid}-title`} className="card-title">
        Add a lead
      </h2>
      <form className="form" noValidate onSubmit={submit} aria-busy={add.isPending} data-testid="lead-form">
        {done ? <FormSuccess testId="lead-done">{done}</FormSuccess> : null}
        {add.isError ? <FormAlert testId="lead-error">{errorMessage(add.error)}</FormAlert> : null}
        <div className="admin-form-row">
          <Field
            label="E-mail"
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={emailError}
            errorTestId="lead-email-error"
            maxLength={254}
            required
          />
          <Field id={`${uid}-name`} label="Name (optional)" value={name} onChange={(e) => setName(e.target.value)} maxLength={200} />
          <Field label="Company (optional)" value={company} onChange={(e) => setCompany(e.target.value)} maxLength={200} />
        </div>
        <div>
          <button type="submit" className="btn btn-primary" disabled={add.isPending} data-testid="lead-submit">
            {add.isPending ? <Spinner size="sm" /> : null} Add lead
          </button>
        </div>
      </form>
    </section>
  );
}

export function AdminLeadsPage() {
  useTitle("Leads · Admin");
  const uid = useId();
  const trpc = useTRPC();
  const [page, setPage] = useState(1);
  const [input, setInput] = useState("");
  const search = useDebounced(input.trim(), 300);
  const leads = useQuery(
    trpc.admin.leads.queryOptions({ page, pageSize: PAGE_SIZE, ...(search ? { search } : {}) }, { placeholderData: keepPreviousData }),
  );
  const data = leads.data;

  return (
    <div className="page" data-testid="admin-leads">
      <PageHeader
        title="Leads"
        subtitle="People who might buy: added here, or found by the lead-list workflow in Marketing. One per e-mail address."
      />
      <AdminNav />
      <AddLeadForm />
      <section className="card card-flush" style={{ marginTop: 16 }}>
        <div className="toolbar">
          <SearchBox
            id={`${uid}-search`}
            label="Search leads"
            placeholder="Search e-mail, name or company"
            value={input}
            onChange={(value) => {
              setInput(value);
              setPage(1);
            }}
          />
          <p className="toolbar-meta muted" aria-live="polite" data-testid="leads-total">
            {leads.isFetching ? <Spinner size="sm" /> : null}
            {data ? `${formatNumber(data.total)} ${data.total === 1 ? "lead" : "leads"}` : null}
          </p>
        </div>
        {leads.isError ? (
          <div className="card-body">
            <InlineError error={leads.error} onRetry={() => void leads.refetch()} />
          </div>
        ) : null}
        <div className="table-wrap">
          <table className="table" data-testid="leads-table">
            <TableHead columns={["E-mail", "Name", "Company", "Source", "Added"]} />
            <tbody>
              {data?.leads.map((lead) => (
                <tr key={lead.id} data-testid="lead-row">
                  <th scope="row" className="cell-email">
                    <Email address={lead.email} />
                  </th>
                  <td>{lead.name ?? "—"}</td>
                  <td>{lead.company ?? "—"}</td>
                  <td>
                    <span className="badge badge-muted">{lead.source}</span>
                  </td>
                  <td>{formatDate(lead.createdAt)}</td>
                </tr>
              ))}
              {data && data.leads.length === 0 ? (
                <TableNoteRow columns={5}>
                  {search ? `No leads match “${search}”.` : "No leads yet. Add one above, or run the lead list in Marketing."}
                </TableNoteRow>
              ) : null}
            </tbody>
          </table>
        </div>
        <Pagination page={page} totalPages={data?.totalPages ?? 1} onPage={setPage} />
      </section>
    </div>
  );
}

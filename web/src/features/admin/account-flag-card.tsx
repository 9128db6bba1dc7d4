// One account flag in the admin console: who (or, for a payment naming no known account, that none matches), what happened (kind, message, the order in words), when,
// and, while open, a Resolve button that opens a note field; the server's answer (e.g. already resolved
// by another admin) is shown in words in place.
import { AccountFlagResolveInput, type AccountFlagView } from "@adgen/schema";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { Link } from "wouter";
import { errorMessage } from "../../lib/errors.ts";
import { formatDateTime, formatMoney } from "../../lib/format.ts";
import { useTRPC } from "../../trpc.ts";
import { FieldError, FormAlert } from "../../ui/form.tsx";
import { Spinner } from "../../ui/status.tsx";
import { Email } from "../../ui/email.tsx";

const KIND_LABELS: Record<string, string> = {
  refund_after_spend: "Refund after spend",
  chargeback_after_spend: "Chargeback after spend",
  unmatched_payment: "Payment that granted nothing",
};

function ResolveFlagForm({ flag, onCancel }: { flag: AccountFlagView; onCancel(): void }) {
  const uid = useId();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [note, setNote] = useState("");
  const [noteError, setNoteError] = useState<string | undefined>();
  const resolve = useMutation(
    trpc.accountFlags.resolve.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.accountFlags.list.pathKey() }),
    }),
  );

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (resolve.isPending) return;
    const parsed = AccountFlagResolveInput.safeParse({ flagId: flag.id, note });
    if (!parsed.success) {
      setNoteError(parsed.error.issues[0]?.message);
      return;
    }
    setNoteError(undefined);
    await resolve.mutateAsync(parsed.data).catch(() => {});
  }

  return (
    <form className="form" noValidate onSubmit={submit} aria-busy={resolve.isPending} data-testid="flag-resolve-form">
      {resolve.isError ? <FormAlert testId="flag-resolve-error">{errorMessage(resolve.error)}</FormAlert> : null}
      <div className={`field${noteError ? " has-error" : ""}`}>
        <label htmlFor={`${uid}-note`} className="field-label">
          What was done
        </label>
        <textarea
          id={`${uid}-note`}
          className="input textarea"
          rows={2}
          maxLength={1000}
          value={note}
          onChange={(e) => {
            setNote(e.target.value);
            setNoteError(undefined);
          }}
          aria-invalid={noteError ? true : undefined}
          data-testid="flag-note"
        />
        <FieldError error={noteError} testId="flag-note-error" />
      </div>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary btn-small" disabled={resolve.isPending} data-testid="flag-resolve-submit">
          {resolve.isPending ? <Spinner size="sm" /> : null} Mark resolved
        </button>
        <button type="button" className="btn btn-ghost btn-small" onClick={onCancel} disabled={resolve.isPending}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function AccountFlagCard({ flag }: { flag: AccountFlagView }) {
  const [resolving, setResolving] = useState(false);
  const open = flag.resolvedAt === null;
  return (
    <li className="card account-flag" data-testid="flag-item" data-status={open ? "open" : "resolved"}>
      <p className="account-flag-head">
        <span className={`badge ${open ? "badge-warning" : "badge-muted"}`}>{open ? "Open" : "Resolved"}</span>{" "}
        <strong>{KIND_LABELS[flag.kind] ?? flag.kind}</strong> <span className="muted">· {formatDateTime(flag.createdAt)}</span>
      </p>
      <p className="account-flag-account">
        {flag.userId ? (
          <Link href={`/admin/users/${flag.userId}`} data-testid="flag-email">
            <Email address={flag.email ?? ""} />
          </Link>
        ) : (
          <span className="muted" data-testid="flag-no-account">
            No account matches this payment
          </span>
        )}
      </p>
      <p data-testid="flag-message">{flag.message}</p>
      {flag.order ? (
        <p className="muted" data-testid="flag-order">
          Order: {flag.order.description}, {formatMoney(flag.order.amountCents / 100, flag.order.currency)} via {flag.order.provider} (
          {flag.order.status})
        </p>
      ) : null}
      {open ? (
        resolving ? (
          <ResolveFlagForm flag={flag} onCancel={() => setResolving(false)} />
        ) : (
          <div>
            <button type="button" className="btn btn-primary btn-small" onClick={() => setResolving(true)} data-testid="flag-resolve">
              Resolve
            </button>
          </div>
        )
      ) : (
        <p className="muted" data-testid="flag-resolution">
          Resolved {formatDateTime(flag.resolvedAt)}
          {flag.resolvedByEmail ? ` by ${flag.resolvedByEmail}` : ""}
          {flag.resolutionNote ? `: ${flag.resolutionNote}` : ""}
        </p>
      )}
    </li>
  );
}

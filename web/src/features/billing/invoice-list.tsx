// The account's invoices, each with a PDF download (POST /api/invoice/generate answers the file).
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { formatDate, formatMoney } from "../../lib/format.ts";
import { useTRPC } from "../../trpc.ts";
import { FormAlert } from "../../ui/form.tsx";
import { InlineError, Skeleton, Spinner } from "../../ui/status.tsx";

async function downloadInvoice(invoiceId: string, number: string): Promise<void> {
  const response = await fetch("/api/invoice/generate", {
    method: "POST",
    credentials: "include",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ invoiceId }),
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: string } | null;
    throw new Error(body?.error ?? `The invoice could not be downloaded (HTTP ${response.status}).`);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = `${number}.pdf`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function InvoiceList() {
  const trpc = useTRPC();
  const invoices = useQuery(trpc.billing.invoices.queryOptions());
  const [downloading, setDownloading] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  async function download(id: string, number: string) {
    setDownloading(id);
    setFailure(null);
    try {
      await downloadInvoice(id, number);
    } catch (error) {
      setFailure((error as Error).message);
    } finally {
      setDownloading(null);
    }
  }

  return (
    <section className="card billing-section" aria-labelledby="invoices-title">
      <h2 id="invoices-title" className="card-title">
        Invoices
      </h2>
      {failure ? <FormAlert testId="invoice-error">{failure}</FormAlert> : null}
      {invoices.isError ? <InlineError error={invoices.error} onRetry={() => void invoices.refetch()} /> : null}
      {invoices.isPending ? <Skeleton height="3rem" /> : null}
      {invoices.data?.length === 0 ? <p className="muted">No invoices yet. Every purchase gets one here.</p> : null}
      {invoices.data?.length ? (
        <ul className="invoice-list" data-testid="invoice-list">
          {invoices.data.map((invoice) => (
            <li key={invoice.id} className="invoice-row">
              <div>
                <p className="invoice-number mono">{invoice.number}</p>
                <p className="muted">
                  {formatDate(invoice.issuedAt)} · {invoice.description}
                </p>
              </div>
              <p className="invoice-total">{formatMoney(invoice.total, invoice.currency)}</p>
              <button
                type="button"
                className="btn btn-ghost btn-small"
                disabled={downloading !== null}
                onClick={() => void download(invoice.id, invoice.number)}
                aria-label={`Download ${invoice.number} as PDF`}
              >
                {downloading === invoice.id ? (
                  <>
                    <Spinner size="sm" /> Preparing…
                  </>
                ) : (
                  "Download PDF"
                )}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

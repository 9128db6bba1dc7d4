// Figures entered in the page, not only through the API: one creative's day in a form, or many days from
// a CSV in the shape ad platforms export (lib/performance-csv.ts). Each CSV row is checked with the
// schema the server uses and then sent; every row's outcome is listed, a refusal with what to fix.
import { PerformanceIngestInput } from "@adgen/schema";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { errorMessage } from "../../lib/errors.ts";
import { readPerformanceCsv } from "../../lib/performance-csv.ts";
import { useTRPC, useTRPCClient } from "../../trpc.ts";
import { FormAlert, FormSuccess } from "../../ui/form.tsx";
import { Spinner } from "../../ui/status.tsx";

const today = () => new Date().toISOString().slice(0, 10);
const FIGURES = ["impressions", "clicks", "conversions", "spend", "revenue"] as const;
const LABELS: Record<(typeof FIGURES)[number], string> = {
  impressions: "Impressions",
  clicks: "Clicks",
  conversions: "Conversions",
  spend: "Spend",
  revenue: "Revenue",
};

const firstIssue = (result: ReturnType<typeof PerformanceIngestInput.safeParse>) =>
  result.success ? null : (result.error.issues[0]?.message ?? "Check this row");

function useRefresh() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: trpc.performance.report.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.loop.recommend.queryKey() });
  };
}

export function OneDayForm({ brandId }: { brandId: string }) {
  const uid = useId();
  const client = useTRPCClient();
  const refresh = useRefresh();
  const [values, setValues] = useState<Record<string, string>>({ creativeId: "", date: today() });
  const [state, setState] = useState<{ busy: boolean; error: string | null; saved: string | null }>({
    busy: false,
    error: null,
    saved: null,
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const request = {
      creativeId: values.creativeId ?? "",
      date: values.date ?? "",
      brandId,
      ...Object.fromEntries(FIGURES.map((f) => [f, values[f]?.trim() ? Number(values[f]) : 0])),
    } as PerformanceIngestInput;
    const problem = firstIssue(PerformanceIngestInput.safeParse(request));
    if (problem) {
      setState({ busy: false, error: problem, saved: null });
      return;
    }
    setState({ busy: true, error: null, saved: null });
    try {
      await client.performance.ingest.mutate(request);
      setState({ busy: false, error: null, saved: `Saved ${request.creativeId} on ${request.date}.` });
      refresh();
    } catch (error) {
      setState({ busy: false, error: errorMessage(error), saved: null });
    }
  }

  const input = (name: string, label: string, type = "number") => (
    <div className="field" key={name}>
      <label htmlFor={`${uid}-${name}`} className="field-label">
        {label}
      </label>
      <input
        id={`${uid}-${name}`}
        className="input"
        type={type}
        min={type === "number" ? 0 : undefined}
        step={name === "spend" || name === "revenue" ? "0.01" : type === "number" ? "1" : undefined}
        value={values[name] ?? ""}
        onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
        data-testid={`figures-${name}`}
      />
    </div>
  );

  return (
    <form className="figures-form" noValidate onSubmit={submit} data-testid="figures-day-form">
      <div className="figures-grid">
        {input("creativeId", "Creative (your ad's id or name)", "text")}
        {input("date", "Day", "date")}
        {FIGURES.map((f) => input(f, LABELS[f]))}
      </div>
      {state.error ? <FormAlert testId="figures-day-error">{state.error}</FormAlert> : null}
      {state.saved ? <FormSuccess testId="figures-day-saved">{state.saved}</FormSuccess> : null}
      <button type="submit" className="btn btn-primary btn-small" disabled={state.busy} data-testid="figures-day-save">
        {state.busy ? <Spinner size="sm" /> : null} Save the day's figures
      </button>
    </form>
  );
}

interface RowOutcome {
  line: number;
  creativeId: string;
  date: string;
  error: string | null;
}

export function CsvUpload({ brandId }: { brandId: string }) {
  const uid = useId();
  const client = useTRPCClient();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [outcomes, setOutcomes] = useState<RowOutcome[]>([]);

  async function read(file: File) {
    setProblem(null);
    setOutcomes([]);
    const reading = readPerformanceCsv(await file.text(), brandId);
    if (reading.missing) {
      setProblem(reading.missing);
      return;
    }
    setBusy(true);
    const done: RowOutcome[] = [];
    for (const { line, request } of reading.rows) {
      const base = { line, creativeId: request.creativeId, date: request.date ?? "" };
      const local = firstIssue(PerformanceIngestInput.safeParse(request));
      if (local) done.push({ ...base, error: local });
      else {
        try {
          await client.performance.ingest.mutate(request);
          done.push({ ...base, error: null });
        } catch (error) {
          done.push({ ...base, error: errorMessage(error) });
        }
      }
      setOutcomes([...done]);
    }
    setBusy(false);
    refresh();
  }

  const failed = outcomes.filter((o) => o.error).length;
  return (
    <div className="figures-csv" data-testid="figures-csv">
      <label htmlFor={`${uid}-csv`} className="field-label">
        Many days from a CSV <span className="muted field-optional">as Meta or Google Ads export it: day, ad, impressions, clicks, …</span>
      </label>
      <input
        id={`${uid}-csv`}
        type="file"
        className="input"
        accept=".csv,text/csv"
        disabled={busy}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = "";
          if (file) void read(file);
        }}
        data-testid="figures-csv-file"
      />
      {problem ? <FormAlert testId="figures-csv-error">{problem}</FormAlert> : null}
      {outcomes.length > 0 ? (
        <>
          <p className={failed ? "field-hint-warning" : "muted"} data-testid="figures-csv-summary" role="status">
            {busy ? <Spinner size="sm" /> : null} {outcomes.length - failed} of {outcomes.length} rows saved
            {failed
              ? `; ${failed} refused: fix those rows and upload only them again (a day already saved is refused, not counted twice)`
              : ""}
            .
          </p>
          <ul className="figures-csv-rows">
            {outcomes.map((o) => (
              <li key={o.line} data-testid="figures-csv-row" data-line={o.line} data-ok={o.error ? "false" : "true"}>
                Row {o.line} ({o.creativeId || "no creative"}, {o.date || "no day"}): {o.error ?? "saved"}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

import type { ReactNode } from "react";
import { Link } from "wouter";
import { errorMessage } from "../lib/errors.ts";

export function Spinner({ size = "md" }: { size?: "sm" | "md" }) {
  return <span className={`spinner spinner-${size}`} aria-hidden="true" />;
}

export function PageLoader({ label = "Loading…" }: { label?: string }) {
  return (
    <div className="page-loader" role="status" aria-live="polite">
      <Spinner />
      <span>{label}</span>
    </div>
  );
}

interface ErrorPanelProps {
  title: string;
  error?: unknown;
  message?: string;
  code?: string;
  onRetry?: () => void;
  children?: ReactNode;
}

export function ErrorPanel({ title, error, message, code, onRetry, children }: ErrorPanelProps) {
  return (
    <section className="error-panel" role="alert">
      {code ? <p className="error-panel-code">{code}</p> : null}
      <h1 className="error-panel-title">{title}</h1>
      <p className="muted">{message ?? (error ? errorMessage(error) : "Something went wrong.")}</p>
      <div className="error-panel-actions">
        {onRetry ? (
          <button type="button" className="btn btn-primary" onClick={onRetry}>
            Try again
          </button>
        ) : null}
        <Link href="/dashboard" className="btn btn-ghost">
          Back to dashboard
        </Link>
        {children}
      </div>
    </section>
  );
}

/** A small inline error for a card that failed to load. */
export function InlineError({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  return (
    <div className="inline-error" role="alert">
      <span>{errorMessage(error)}</span>
      {onRetry ? (
        <button type="button" className="btn btn-link" onClick={onRetry}>
          Retry
        </button>
      ) : null}
    </div>
  );
}

export function Skeleton({ width = "100%", height = "1em" }: { width?: string; height?: string }) {
  return <span className="skeleton" style={{ width, height }} aria-hidden="true" />;
}

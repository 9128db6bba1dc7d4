// A key just made, shown in full this once with a button to copy it: the service keeps only its hash.
import { useState } from "react";

export function FreshKey({ title, value, testId, valueTestId }: { title: string; value: string; testId: string; valueTestId: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    await navigator.clipboard?.writeText(value).catch(() => undefined);
    setCopied(true);
  }
  return (
    <div className="alert alert-warning" role="status" data-testid={testId}>
      <div>
        <p className="alert-title">{title}</p>
        <p className="api-key-value mono" data-testid={valueTestId}>
          {value}
        </p>
        <button type="button" className="btn btn-ghost btn-small" onClick={() => void copy()}>
          {copied ? "Copied" : "Copy key"}
        </button>
      </div>
    </div>
  );
}

// A download of one generated file, as an attachment (the server checks ownership and origin).
import type { ReactNode } from "react";
import { downloadHref } from "../../lib/workflow.ts";

/** The link's words are "Download" unless told. */
export function DownloadLink({ url, testId, children = "Download" }: { url: string; testId?: string; children?: ReactNode }) {
  return (
    <a className="btn btn-ghost btn-small" href={downloadHref(url)} download data-testid={testId}>
      <DownloadIcon />
      {children}
    </a>
  );
}

function DownloadIcon() {
  return (
    <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true" className="icon">
      <path
        d="M10 3v9m0 0l-3.5-3.5M10 12l3.5-3.5M4 15.5h12"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.7"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

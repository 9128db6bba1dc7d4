// Before paying: what the studio can read from the page the user gave (title, pictures, colours), or a
// plain statement that it can read nothing, so the ad will come from the concept and brand alone.
import { useQuery } from "@tanstack/react-query";
import { useDebounced } from "../../lib/hooks.ts";
import { useTRPC } from "../../trpc.ts";

function isHttpUrl(value: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

export function PagePreviewCard({ url }: { url: string }) {
  const trpc = useTRPC();
  const debounced = useDebounced(url.trim(), 600);
  const enabled = isHttpUrl(debounced);
  const preview = useQuery(trpc.workflow.previewPage.queryOptions({ url: debounced }, { enabled, retry: false, staleTime: 5 * 60_000 }));
  if (!enabled) return null;
  if (preview.isPending) {
    return (
      <p className="page-preview page-preview-loading" role="status" data-testid="page-preview">
        <span className="spinner" aria-hidden="true" /> Reading the page…
      </p>
    );
  }
  if (preview.isError) {
    return (
      <p className="page-preview page-preview-error" role="alert" data-testid="page-preview">
        {preview.error.message}
      </p>
    );
  }
  const page = preview.data;
  if (!page.readable) {
    return (
      <div className="page-preview page-preview-empty" role="status" data-testid="page-preview">
        <strong>We could not read anything we can use from this page.</strong> {page.warnings[0] ? <span>({page.warnings[0]})</span> : null}{" "}
        The ad will be made from your concept and brand profile.
      </div>
    );
  }
  return (
    <div className="page-preview" data-testid="page-preview">
      <p className="page-preview-label">What we read from the page</p>
      {page.title ? <p className="page-preview-title">{page.title}</p> : null}
      {page.description ? <p className="page-preview-description">{page.description}</p> : null}
      {page.images.length ? (
        <div className="page-preview-images">
          {page.images.slice(0, 4).map((src) => (
            <img key={src} src={src} alt="" loading="lazy" referrerPolicy="no-referrer" />
          ))}
        </div>
      ) : null}
      {page.colors.length ? (
        <div className="page-preview-colors">
          <span className="visually-hidden">Colours: {page.colors.join(", ")}</span>
          {page.colors.map((color) => (
            <span key={color} className="page-preview-swatch" style={{ background: color }} title={color} aria-hidden="true" />
          ))}
        </div>
      ) : null}
    </div>
  );
}

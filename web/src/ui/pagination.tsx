// The bar under a paged list: back a page, where the reader is, on a page.
interface PaginationProps {
  page: number;
  totalPages: number;
  onPage(page: number): void;
  /** The nav's accessible name. */
  label?: string;
  previousLabel?: string;
  nextLabel?: string;
  /** While the next page loads, both buttons wait. */
  busy?: boolean;
  testIds?: { previous: string; page: string; next: string };
}

export function Pagination({
  page,
  totalPages,
  onPage,
  label = "Pagination",
  previousLabel = "← Previous",
  nextLabel = "Next →",
  busy = false,
  testIds,
}: PaginationProps) {
  return (
    <nav className="pagination" aria-label={label}>
      <button
        type="button"
        className="btn btn-ghost btn-small"
        onClick={() => onPage(page - 1)}
        disabled={page <= 1 || busy}
        data-testid={testIds?.previous}
      >
        {previousLabel}
      </button>
      <span className="muted" data-testid={testIds?.page}>
        Page {page} of {totalPages}
      </span>
      <button
        type="button"
        className="btn btn-ghost btn-small"
        onClick={() => onPage(page + 1)}
        disabled={page >= totalPages || busy}
        data-testid={testIds?.next}
      >
        {nextLabel}
      </button>
    </nav>
  );
}

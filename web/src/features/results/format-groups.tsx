// A result's files grouped by format (9:16 first), each group titled with its ratio, its platforms and
// how many items it holds; used by the image gallery and the factory batch.
import type { ReactNode } from "react";
import { formatLabel, ratioId, sortFormats } from "../../lib/workflow.ts";

export function FormatGroups<T extends { format: string }>({
  items,
  idPrefix,
  noun,
  children,
}: {
  items: readonly T[];
  /** Prefixes each group's heading id (`<idPrefix>-9x16`). */
  idPrefix: string;
  /** What an item is, singular and plural ("image", "images"). */
  noun: [string, string];
  /** The list items of one format's group. */
  children: (inFormat: T[], format: T["format"]) => ReactNode;
}) {
  const formats = sortFormats([...new Set(items.map((item) => item.format))]);
  return formats.map((format) => {
    const inFormat = items.filter((item) => item.format === format);
    return (
      <section key={format} className="gallery-format" aria-labelledby={`${idPrefix}-${ratioId(format)}`}>
        <h3 id={`${idPrefix}-${ratioId(format)}`} className="result-section-title">
          {format} <span className="muted">· {formatLabel(format)}</span>
          <span className="muted gallery-count">
            {" "}
            · {inFormat.length} {inFormat.length === 1 ? noun[0] : noun[1]}
          </span>
        </h3>
        <ul className={`gallery-grid gallery-${ratioId(format)}`}>{children(inFormat, format)}</ul>
      </section>
    );
  });
}

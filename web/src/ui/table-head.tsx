// A table's column headings. A column given as { label, num: true } holds numbers (right-aligned).
import type { ReactNode } from "react";

export type Column = string | { label: ReactNode; num?: boolean; key?: string };

export function TableHead({ columns }: { columns: readonly Column[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column) =>
          typeof column === "string" ? (
            <th key={column} scope="col">
              {column}
            </th>
          ) : (
            <th key={column.key ?? String(column.label)} scope="col" className={column.num ? "num" : undefined}>
              {column.label}
            </th>
          ),
        )}
      </tr>
    </thead>
  );
}

// A table's one-row note across all its columns: that it is empty, or that it is loading.
import type { ReactNode } from "react";

export function TableNoteRow({ columns, children }: { columns: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={columns} className="empty">
        {children}
      </td>
    </tr>
  );
}

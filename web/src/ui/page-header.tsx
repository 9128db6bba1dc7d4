// The head of a page: its title, a line about it, and any buttons or links that act on the whole page.
import type { ReactNode } from "react";

interface PageHeaderProps {
  title: ReactNode;
  subtitle?: ReactNode;
  /** Beside the title (a button, a toolbar). */
  children?: ReactNode;
}

export function PageHeader({ title, subtitle, children }: PageHeaderProps) {
  return (
    <header className="page-header">
      <div>
        <h1 className="page-title">{title}</h1>
        {subtitle === undefined ? null : <p className="page-subtitle muted">{subtitle}</p>}
      </div>
      {children}
    </header>
  );
}

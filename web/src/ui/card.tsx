// A titled card: its head (the title and whatever stands beside it: a badge, a link, a switch), then its content.
import type { ReactNode } from "react";
import { Link } from "wouter";

interface CardProps {
  title: ReactNode;
  /** The heading's id, which names the card. */
  titleId: string;
  /** Classes beside `card`. */
  className?: string;
  testId?: string;
  /** Beside the title in the head. */
  aside?: ReactNode;
  /** A way on from the card (e.g. "All projects"), shown beside the title as a small ghost button. */
  link?: { href: string; label: string };
  children?: ReactNode;
}

export function Card({ title, titleId, className, testId, aside, link, children }: CardProps) {
  return (
    <section className={className ? `card ${className}` : "card"} aria-labelledby={titleId} data-testid={testId}>
      <div className="card-head">
        <h2 id={titleId} className="card-title">
          {title}
        </h2>
        {aside}
        {link ? (
          <Link href={link.href} className="btn btn-ghost btn-small">
            {link.label}
          </Link>
        ) : null}
      </div>
      {children}
    </section>
  );
}

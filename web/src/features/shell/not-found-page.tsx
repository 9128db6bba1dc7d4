import { Link } from "wouter";
import { useTitle } from "../../lib/hooks.ts";

export function NotFoundPage() {
  useTitle("Page not found");
  return (
    <section className="not-found">
      <p className="error-panel-code">404</p>
      <h1 className="section-title">This page does not exist</h1>
      <p className="muted">The link may be old, or the area may not be part of this workspace yet.</p>
      <Link href="/" className="btn btn-primary">
        Back to the home page
      </Link>
    </section>
  );
}

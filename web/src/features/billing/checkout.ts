// Where a checkout answer leads. The built-in sandbox page is part of this app: it is opened on the
// page's own origin (client-side navigation), whatever host PUBLIC_URL names, because the session cookie
// belongs to the host the visitor is on (PUBLIC_URL's default, http://localhost:PORT, is another origin
// than http://127.0.0.1:PORT, and following it would look like being logged out). The provider's page
// is another site (a full page load).
export function followCheckout(session: { url: string; sandbox: boolean }, navigate: (path: string) => void): void {
  const target = new URL(session.url, window.location.origin);
  if (session.sandbox && target.pathname.startsWith("/billing/sandbox/")) {
    navigate(`${target.pathname}${target.search}`);
    return;
  }
  window.location.assign(target.toString());
}

// Where a checkout answer leads: the built-in sandbox page is part of this app (client-side navigation),
// the provider's page is another site (a full page load).
export function followCheckout(url: string, navigate: (path: string) => void): void {
  const target = new URL(url, window.location.origin);
  if (target.origin === window.location.origin && target.pathname.startsWith("/billing/sandbox/")) {
    navigate(target.pathname);
    return;
  }
  window.location.assign(target.toString());
}

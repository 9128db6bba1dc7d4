// Where a login goes back to: the page that sent the visitor to /login (`?next=`), so a checkout or a
// deep link is not lost to a session that ended. Only a path on this site is followed (never another
// origin: `//host` and `/\host` are other origins to a browser); anything else goes to the dashboard.
const HOME = "/dashboard";

/** The login page's address that returns to `path` (the current page's path and query). */
export function loginReturningTo(path: string): string {
  return path && path !== "/" && path !== HOME && safePath(path) ? `/login?next=${encodeURIComponent(path)}` : "/login";
}

function safePath(path: string): boolean {
  if (!path.startsWith("/") || path.startsWith("//") || path.startsWith("/\\")) return false;
  // Read as the browser will (tabs and newlines dropped, backslashes as slashes): still this origin?
  try {
    return new URL(path, window.location.origin).origin === window.location.origin;
  } catch {
    return false;
  }
}

/** Where to go after logging in or signing up: `next` from the address bar when it is a path here. */
export function returnPath(search: string = window.location.search): string {
  const next = new URLSearchParams(search).get("next");
  if (!next || !safePath(next) || next.startsWith("/login") || next.startsWith("/signup")) return HOME;
  return next;
}

// The admin console's sections, as tabs under every admin page (a scrolling row on a phone).
import { Link, useLocation } from "wouter";

export const ADMIN_SECTIONS = [
  { href: "/admin/overview", label: "Overview" },
  { href: "/admin", label: "Users" },
  { href: "/admin/leads", label: "Leads" },
  // The queue of notices and decisions: an admin's work, so it is a tab of the console.
  { href: "/admin/moderation", label: "Moderation" },
  { href: "/admin/agents", label: "Agents" },
  { href: "/admin/marketing", label: "Marketing" },
  { href: "/admin/settings", label: "Settings" },
  { href: "/admin/system", label: "System" },
  { href: "/admin/activity", label: "Activity" },
  // Refunds and chargebacks whose credits were already spent, and payments that matched no account.
  { href: "/admin/flags", label: "Account flags" },
] as const;

export function AdminNav() {
  const [location] = useLocation();
  const current = (href: string) =>
    href === "/admin" ? location === "/admin" || location.startsWith("/admin/users") : location.startsWith(href);
  return (
    <nav className="admin-tabs" aria-label="Admin sections" data-testid="admin-nav">
      {ADMIN_SECTIONS.map((section) => (
        <Link
          key={section.href}
          href={section.href}
          className={current(section.href) ? "admin-tab admin-tab-current" : "admin-tab"}
          aria-current={current(section.href) ? "page" : undefined}
        >
          {section.label}
        </Link>
      ))}
    </nav>
  );
}

// The page frames: the app shell (header, nav, balance pill, user menu) that every signed-in area
// slots into, the marketing frame of the landing page and the centred frame of login and signup.
import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useEffect, useId, useState } from "react";
import { Link, useLocation, useRoute } from "wouter";
import { type Session, useLogout, useOptionalSession } from "../../auth/session.tsx";
import { formatNumber } from "../../lib/format.ts";
import { NAV_ITEMS, type NavItem } from "../../routes.tsx";
import { useTRPC } from "../../trpc.ts";
import { Icon, Logo } from "./icons.tsx";
import { useLiveBalance } from "./live-balance.tsx";

function Brand({ href }: { href: string }) {
  return (
    <Link href={href} className="brand" aria-label="AdGen home">
      <Logo />
      <span className="brand-name">AdGen</span>
    </Link>
  );
}

function NavLinkEntry({ item, href }: { item: NavItem; href: string }) {
  // An area's nested pages (/studio/jobs/…) keep its nav item active.
  const [exact] = useRoute(href);
  const [nested] = useRoute(`${href}/*`);
  const active = exact || nested;
  return (
    <li>
      <Link href={href} className={active ? "nav-link is-active" : "nav-link"} aria-current={active ? "page" : undefined}>
        <Icon name={item.icon} />
        <span>{item.label}</span>
      </Link>
    </li>
  );
}

function NavEntry({ item }: { item: NavItem }) {
  const tipId = useId();
  if (item.href) return <NavLinkEntry item={item} href={item.href} />;
  // Not built yet: visible so the product's shape is clear, but nothing fake is clickable. A button
  // with aria-disabled (not `disabled`) stays focusable, so keyboard users can reach the tooltip.
  return (
    <li>
      <button
        type="button"
        className="nav-link is-disabled has-tooltip"
        aria-disabled="true"
        aria-describedby={tipId}
        data-testid={`nav-${item.label.toLowerCase()}`}
      >
        <Icon name={item.icon} />
        <span>{item.label}</span>
        <span role="tooltip" id={tipId} className="tooltip">
          Coming soon
        </span>
      </button>
    </li>
  );
}

function BalancePill() {
  const trpc = useTRPC();
  const { status } = useLiveBalance();
  const credits = useQuery(
    trpc.user.credits.queryOptions(undefined, {
      // While the live stream is down, poll so the pill does not go stale.
      refetchInterval: status === "live" ? false : 60_000,
    }),
  );
  const balance = credits.data?.balance;
  const label = balance === undefined ? "Credits loading" : `${formatNumber(balance)} credits`;
  return (
    <output
      className="balance-pill"
      aria-live="polite"
      aria-label={label}
      data-testid="balance-pill"
      title={status === "live" ? "Live balance" : undefined}
    >
      <span className={`live-dot live-${status}`} aria-hidden="true" />
      <span className="balance-pill-value">{balance === undefined ? "–" : formatNumber(balance)}</span>
      <span className="balance-pill-unit">credits</span>
    </output>
  );
}

function UserMenu({ session }: { session: Session }) {
  const logout = useLogout();
  const initial = session.email.slice(0, 1).toUpperCase();
  return (
    <div className="user-menu">
      <span className="avatar" aria-hidden="true">
        {initial}
      </span>
      <span className="user-menu-identity">
        <span className="user-menu-email" title={session.email} data-testid="user-email">
          {session.email}
        </span>
        {session.role === "admin" ? <span className="badge badge-admin">Admin</span> : null}
      </span>
      <button
        type="button"
        className="btn btn-ghost btn-small"
        onClick={() => logout.mutate()}
        disabled={logout.isPending}
        data-testid="logout"
      >
        {logout.isPending ? "Logging out…" : "Log out"}
      </button>
    </div>
  );
}

/** The nav's toggle on phone-sized screens (CSS shows it there only): the whole nav, not a clipped strip. */
function MenuButton({ open, controls, onToggle }: { open: boolean; controls: string; onToggle(): void }) {
  return (
    <button
      type="button"
      className="btn btn-ghost btn-small nav-toggle"
      aria-label="Menu"
      aria-expanded={open}
      aria-controls={controls}
      onClick={onToggle}
      data-testid="nav-toggle"
    >
      <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
        {open ? (
          <path d="M5 5l10 10M15 5L5 15" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
        ) : (
          <path d="M3 5.5h14M3 10h14M3 14.5h14" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
        )}
      </svg>
      <span className="nav-toggle-label" aria-hidden="true">
        Menu
      </span>
    </button>
  );
}

export function AppShell({ session, children }: { session: Session; children: ReactNode }) {
  const items = NAV_ITEMS.filter((item) => !item.adminOnly || session.role === "admin");
  const navId = useId();
  const [menuOpen, setMenuOpen] = useState(false);
  const [location] = useLocation();
  // Following a link closes the menu, so the page it opened is what the person sees.
  useEffect(() => {
    if (location) setMenuOpen(false);
  }, [location]);
  return (
    <div className="app">
      <SkipLink />
      <header className="app-header">
        <div className="app-header-inner">
          <Brand href="/dashboard" />
          <div className="app-header-end">
            <BalancePill />
            <UserMenu session={session} />
            <MenuButton open={menuOpen} controls={navId} onToggle={() => setMenuOpen((open) => !open)} />
          </div>
        </div>
        <nav id={navId} className={menuOpen ? "app-nav is-open" : "app-nav"} aria-label="Main">
          <ul className="app-nav-list">
            {items.map((item) => (
              <NavEntry key={item.label} item={item} />
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" className="app-main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}

export function MarketingLayout({ children }: { children: ReactNode }) {
  const session = useOptionalSession();
  return (
    <div className="marketing">
      <SkipLink />
      <header className="marketing-header">
        <div className="marketing-header-inner">
          <Brand href="/" />
          <nav className="marketing-nav" aria-label="Main">
            <a href="/#workflows">Workflows</a>
            <a href="/#pricing">Pricing</a>
            <a href="/#contact">Contact</a>
          </nav>
          <div className="marketing-actions">
            {session ? (
              <Link href="/dashboard" className="btn btn-primary btn-small">
                Go to dashboard
              </Link>
            ) : (
              <>
                <Link href="/login" className="btn btn-ghost btn-small">
                  Log in
                </Link>
                <Link href="/signup" className="btn btn-primary btn-small">
                  Start free trial
                </Link>
              </>
            )}
          </div>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <footer className="marketing-footer">
        <div className="marketing-footer-inner">
          <span>© {new Date().getFullYear()} AdGen</span>
          <span className="muted">Video ads, directed by AI.</span>
        </div>
      </footer>
    </div>
  );
}

export function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <div className="auth-layout">
      <header className="auth-header">
        <Brand href="/" />
      </header>
      <main id="main" className="auth-main">
        {children}
      </main>
    </div>
  );
}

/** The first stop of the keyboard: straight to the page's main content. */
function SkipLink() {
  return (
    <a href="#main" className="skip-link">
      Skip to content
    </a>
  );
}

import type { NavIcon } from "../../routes.tsx";

const PATHS: Record<NavIcon, string> = {
  dashboard: "M3 3h6v8H3zM11 3h6v5h-6zM11 10h6v7h-6zM3 13h6v4H3z",
  studio: "M4 4h12v12H4zM8 7.5v5l4.5-2.5z",
  projects: "M2.5 5.5h6l1.5 2h7.5v8.5h-15z",
  brand: "M10 2.5l2.2 4.6 5 .7-3.6 3.5.9 5-4.5-2.4-4.5 2.4.9-5L2.8 7.8l5-.7z",
  billing: "M2.5 5h15v10h-15zM2.5 8.5h15",
  settings:
    "M10 7a3 3 0 1 0 0 6 3 3 0 0 0 0-6zM10 2v2.2M10 15.8V18M4.3 4.3l1.6 1.6M14.1 14.1l1.6 1.6M2 10h2.2M15.8 10H18M4.3 15.7l1.6-1.6M14.1 5.9l1.6-1.6",
  admin: "M10 2.5l6.5 2.5v4.5c0 4-2.8 7-6.5 8-3.7-1-6.5-4-6.5-8V5z",
};

export function Icon({ name }: { name: NavIcon }) {
  return (
    <svg className="icon" viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" focusable="false">
      <path d={PATHS[name]} fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinejoin="round" strokeLinecap="round" />
    </svg>
  );
}

export function Logo() {
  return (
    <svg className="logo-mark" viewBox="0 0 32 32" width="28" height="28" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="logo-gradient" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#6366f1" />
          <stop offset="1" stopColor="#db2777" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill="url(#logo-gradient)" />
      <path d="M12 9.5v13l11-6.5z" fill="#fff" />
    </svg>
  );
}

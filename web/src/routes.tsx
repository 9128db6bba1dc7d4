// Every client route in one table. A later area adds its page here and flips its nav item from
// `comingSoon` to `href`; the server answers index.html for any of these paths.
import type { ComponentType } from "react";
import type { Session } from "./auth/session.tsx";
import { AdminPage } from "./pages/admin.tsx";
import { AdminUserPage } from "./pages/admin-user.tsx";
import { DashboardPage } from "./pages/dashboard.tsx";
import { JobPage } from "./pages/job.tsx";
import { LandingPage } from "./pages/landing.tsx";
import { LoginPage } from "./pages/login.tsx";
import { ProjectsPage } from "./pages/projects.tsx";
import { PromptBuilderPage } from "./pages/prompt-builder.tsx";
import { SettingsPage } from "./pages/settings.tsx";
import { SignupPage } from "./pages/signup.tsx";
import { StudioPage } from "./pages/studio.tsx";

export interface PageProps {
  session: Session;
}

export type AppRoute =
  /** Anyone; the marketing layout. */
  | { path: string; access: "public"; page: ComponentType }
  /** Signed-out visitors only (a signed-in one goes to /dashboard); the auth layout. */
  | { path: string; access: "guest"; page: ComponentType }
  /** Signed-in accounts (role admin for "admin"); the app shell. Others go to /login. */
  | { path: string; access: "user" | "admin"; page: ComponentType<PageProps> };

export const ROUTES: readonly AppRoute[] = [
  { path: "/", access: "public", page: LandingPage },
  { path: "/signup", access: "guest", page: SignupPage },
  { path: "/login", access: "guest", page: LoginPage },
  { path: "/dashboard", access: "user", page: DashboardPage },
  { path: "/studio", access: "user", page: StudioPage },
  { path: "/studio/jobs/:jobId", access: "user", page: JobPage },
  { path: "/projects", access: "user", page: ProjectsPage },
  { path: "/prompt-builder", access: "user", page: PromptBuilderPage },
  { path: "/settings", access: "user", page: SettingsPage },
  { path: "/admin", access: "admin", page: AdminPage },
  { path: "/admin/users/:id", access: "admin", page: AdminUserPage },
];

export type NavIcon = "dashboard" | "studio" | "projects" | "brand" | "billing" | "settings" | "admin";

export interface NavItem {
  label: string;
  icon: NavIcon;
  /** A real route; absent while the area is not built (rendered disabled, "Coming soon"). */
  href?: string;
  adminOnly?: boolean;
}

export const NAV_ITEMS: readonly NavItem[] = [
  { label: "Dashboard", icon: "dashboard", href: "/dashboard" },
  { label: "Studio", icon: "studio", href: "/studio" },
  { label: "Projects", icon: "projects", href: "/projects" },
  { label: "Prompts", icon: "studio", href: "/prompt-builder" },
  { label: "Brand", icon: "brand" },
  { label: "Billing", icon: "billing" },
  { label: "Settings", icon: "settings", href: "/settings" },
  { label: "Admin", icon: "admin", href: "/admin", adminOnly: true },
];

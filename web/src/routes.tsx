// Every client route in one table. A later area adds its page here and flips its nav item from
// `comingSoon` to `href`; the server answers index.html for any of these paths.
import type { ComponentType } from "react";
import type { Session } from "./auth/session.tsx";
import { AdminPage } from "./pages/admin.tsx";
import { AdminUserPage } from "./pages/admin-user.tsx";
import { AdminActivityPage } from "./pages/admin-activity.tsx";
import { AdminAgentsPage } from "./pages/admin-agents.tsx";
import { AdminLeadsPage } from "./pages/admin-leads.tsx";
import { AdminMarketingPage } from "./pages/admin-marketing.tsx";
import { AdminOverviewPage } from "./pages/admin-overview.tsx";
import { AdminSettingsPage } from "./pages/admin-settings.tsx";
import { AdminSystemPage } from "./pages/admin-system.tsx";
import { BillingPage } from "./pages/billing.tsx";
import { BrandPage } from "./pages/brand.tsx";
import { BillingSandboxPage } from "./pages/billing-sandbox.tsx";
import { AdminModerationPage } from "./pages/admin-moderation.tsx";
import { AdminFlagsPage } from "./pages/admin-flags.tsx";
import { AssistantPage } from "./pages/assistant.tsx";
import { DashboardPage } from "./pages/dashboard.tsx";
import { JobPage } from "./pages/job.tsx";
import { LandingPage } from "./pages/landing.tsx";
import { LoginPage } from "./pages/login.tsx";
import { PerformancePage } from "./pages/performance.tsx";
import { ProjectsPage } from "./pages/projects.tsx";
import { PromptBuilderPage } from "./pages/prompt-builder.tsx";
import { ReportPage } from "./pages/report.tsx";
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
  { path: "/performance", access: "user", page: PerformancePage },
  { path: "/assistant", access: "user", page: AssistantPage },
  { path: "/prompt-builder", access: "user", page: PromptBuilderPage },
  { path: "/settings", access: "user", page: SettingsPage },
  { path: "/brand", access: "user", page: BrandPage },
  { path: "/billing", access: "user", page: BillingPage },
  { path: "/billing/sandbox/:orderId", access: "user", page: BillingSandboxPage },
  { path: "/admin", access: "admin", page: AdminPage },
  { path: "/admin/users/:id", access: "admin", page: AdminUserPage },
  { path: "/admin/overview", access: "admin", page: AdminOverviewPage },
  { path: "/admin/leads", access: "admin", page: AdminLeadsPage },
  { path: "/admin/agents", access: "admin", page: AdminAgentsPage },
  { path: "/admin/marketing", access: "admin", page: AdminMarketingPage },
  { path: "/admin/settings", access: "admin", page: AdminSettingsPage },
  { path: "/admin/system", access: "admin", page: AdminSystemPage },
  { path: "/admin/activity", access: "admin", page: AdminActivityPage },
  { path: "/admin/moderation", access: "admin", page: AdminModerationPage },
  { path: "/admin/flags", access: "admin", page: AdminFlagsPage },
  { path: "/report", access: "user", page: ReportPage },
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
  { label: "Performance", icon: "dashboard", href: "/performance" },
  { label: "Assistant", icon: "studio", href: "/assistant" },
  { label: "Prompts", icon: "studio", href: "/prompt-builder" },
  { label: "Brand", icon: "brand", href: "/brand" },
  { label: "Billing", icon: "billing", href: "/billing" },
  { label: "Settings", icon: "settings", href: "/settings" },
  // Moderation is one of the admin console's tabs; a second top-level entry wrapped the nav at 1400 px.
  { label: "Admin", icon: "admin", href: "/admin", adminOnly: true },
];

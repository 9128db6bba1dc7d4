// Every client route in one table. A later area adds its page here and flips its nav item from
// `comingSoon` to `href`; the server answers index.html for any of these paths.
import type { ComponentType } from "react";
import type { PageProps } from "./page-props.ts";
import { AdminPage } from "./features/admin/admin-page.tsx";
import { AdminUserPage } from "./features/admin/admin-user-page.tsx";
import { AdminActivityPage } from "./features/admin/admin-activity-page.tsx";
import { AdminAgentsPage } from "./features/admin/admin-agents-page.tsx";
import { AdminLeadsPage } from "./features/admin/admin-leads-page.tsx";
import { AdminMarketingPage } from "./features/admin/admin-marketing-page.tsx";
import { AdminOverviewPage } from "./features/admin/admin-overview-page.tsx";
import { AdminSettingsPage } from "./features/admin/admin-settings-page.tsx";
import { AdminSystemPage } from "./features/admin/admin-system-page.tsx";
import { BillingPage } from "./features/billing/billing-page.tsx";
import { BrandPage } from "./features/brand/brand-page.tsx";
import { BillingSandboxPage } from "./features/billing/billing-sandbox-page.tsx";
import { AdminModerationPage } from "./features/admin/admin-moderation-page.tsx";
import { AdminFlagsPage } from "./features/admin/admin-flags-page.tsx";
import { AssistantPage } from "./features/assistant/assistant-page.tsx";
import { DashboardPage } from "./features/dashboard/dashboard-page.tsx";
import { JobPage } from "./features/job/job-page.tsx";
import { LandingPage } from "./features/landing/landing-page.tsx";
import { LoginPage } from "./features/auth/login-page.tsx";
import { PerformancePage } from "./features/performance/performance-page.tsx";
import { ProjectsPage } from "./features/projects/projects-page.tsx";
import { PromptBuilderPage } from "./features/prompt-builder/prompt-builder-page.tsx";
import { ReportPage } from "./features/moderation/report-page.tsx";
import { SettingsPage } from "./features/settings/settings-page.tsx";
import { SignupPage } from "./features/auth/signup-page.tsx";
import { StudioPage } from "./features/studio/studio-page.tsx";

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

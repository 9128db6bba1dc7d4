// System settings an admin changes at run time: signup credits, trial days, maintenance mode, feature
// flags. Defaults come from the environment (SIGNUP_CREDITS, TRIAL_DAYS); a changed value is a row in
// system_settings. The service reads them through `readSettings` (signup, the maintenance gate, marketing).
import type { Prisma, Role } from "@adgen/prisma";
import { SETTING_KEYS, SystemSettings, SystemSettingsUpdate, type SystemSettingsView } from "@adgen/schema";
import type { z } from "zod";
import type { Services } from "../../request-context.ts";
import { AppError, parseInput } from "../../errors.ts";
import { type ActingAccount, type AuditSource, auditSourceFor, recordAudit } from "../audit/record-audit.ts";
import { auditAdminRead } from "../audit/admin-audit.ts";

type Settings = z.infer<typeof SystemSettings>;
type SettingKey = (typeof SETTING_KEYS)[number];

/** Another instance's change is seen within this long; this instance's own changes at once. */
const CACHE_MS = 2_000;
const cache = new WeakMap<Services, { at: number; value: Promise<{ settings: Settings; stored: Set<SettingKey> }> }>();

export function defaultSettings(services: Services): Settings {
  return {
    signupCredits: services.config.signupCredits,
    trialDays: services.config.trialDays,
    maintenanceMode: false,
    maintenanceMessage: "The service is in maintenance and read-only for a short while. Please try again later.",
    featureFlags: { signups: true, marketing: true },
  };
}

async function load(services: Services) {
  const rows = await services.prisma.systemSetting.findMany();
  const settings = defaultSettings(services);
  const stored = new Set<SettingKey>();
  for (const row of rows) {
    const key = row.key as SettingKey;
    if (!SETTING_KEYS.includes(key)) continue;
    const candidate = { ...settings, [key]: key === "featureFlags" ? { ...settings.featureFlags, ...(row.value as object) } : row.value };
    // A stored value that no longer validates (an older shape) falls back to the default instead of failing.
    const parsed = SystemSettings.safeParse(candidate);
    if (parsed.success) {
      Object.assign(settings, parsed.data);
      stored.add(key);
    }
  }
  return { settings, stored };
}

async function loadCached(services: Services) {
  const hit = cache.get(services);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.value;
  const value = load(services);
  cache.set(services, { at: Date.now(), value });
  value.catch(() => cache.delete(services));
  return value;
}

/** The settings in force now. */
export async function readSettings(services: Services): Promise<Settings> {
  return (await loadCached(services)).settings;
}

async function view(services: Services): Promise<SystemSettingsView> {
  const { settings, stored } = await loadCached(services);
  return {
    settings,
    sources: Object.fromEntries(SETTING_KEYS.map((key) => [key, stored.has(key) ? "admin" : "default"])) as SystemSettingsView["sources"],
    defaults: defaultSettings(services),
  };
}

/** The settings for the admin console (an `admin` operation: the invocation checked the caller). */
export async function getSettings(services: Services, source: AuditSource): Promise<SystemSettingsView> {
  await auditAdminRead(services, source, "admin.settings_viewed");
  return view(services);
}

/** Changes settings as `admin` (an `admin` operation: the invocation checked the caller). */
export async function updateSettings(
  services: Services,
  admin: ActingAccount,
  input: z.input<typeof SystemSettingsUpdate>,
): Promise<SystemSettingsView> {
  const patch = parseInput(SystemSettingsUpdate, input);
  const before = await load(services);
  const next = { ...before.settings, ...patch, featureFlags: { ...before.settings.featureFlags, ...patch.featureFlags } };
  const checked = SystemSettings.safeParse(next);
  if (!checked.success) throw new AppError("BAD_REQUEST", checked.error.issues[0]?.message ?? "invalid settings");
  const keys = Object.keys(patch) as SettingKey[];
  await services.prisma.$transaction(async (tx) => {
    for (const key of keys) {
      const value = checked.data[key] as Prisma.InputJsonValue;
      await tx.systemSetting.upsert({
        where: { key },
        create: { key, value, updatedById: admin.id },
        update: { value, updatedById: admin.id },
      });
    }
    await recordAudit(tx, auditSourceFor(admin), {
      action: "admin.settings_updated",
      targetType: "settings",
      metadata: {
        changes: Object.fromEntries(keys.map((key) => [key, checked.data[key]])),
        before: Object.fromEntries(keys.map((key) => [key, before.settings[key]])),
      },
    });
  });
  cache.delete(services);
  return view(services);
}

/** Operations a non-admin may still call in maintenance: signing in and out, and the service's own workers. */
const ALLOWED_IN_MAINTENANCE = new Set(["auth.login", "auth.logout", "workflow.workerUpdate"]);

/**
 * Maintenance mode makes the service read-only for everyone but admins: a change answers 503 with the
 * maintenance message; reads keep working. Payment and platform webhooks still land (their senders
 * would otherwise have to retry, and a paid order must not wait). `role` is the caller's (null when signed out).
 */
export async function refuseWritesInMaintenance(
  services: Services,
  role: Role | null,
  operation: { name: string; kind: string },
): Promise<void> {
  if (operation.kind !== "mutation" && operation.kind !== "upload") return;
  if (role === "admin") return;
  if (ALLOWED_IN_MAINTENANCE.has(operation.name) || operation.name.startsWith("webhook.")) return;
  const settings = await readSettings(services);
  if (settings.maintenanceMode) throw new AppError("UNAVAILABLE", settings.maintenanceMessage);
}

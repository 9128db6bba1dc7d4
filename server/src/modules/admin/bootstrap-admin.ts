// ADMIN_EMAIL / ADMIN_PASSWORD: at start-up this account exists, is an active admin, and has that password.
import type { Services } from "../../request-context.ts";
import { isUniqueViolation } from "../../errors.ts";
import { hashPassword, verifyPassword } from "../auth/password.ts";

export async function ensureAdminAccount(services: Services): Promise<void> {
  const admin = services.config.admin;
  if (!admin) return;
  const email = admin.email.trim().toLowerCase();
  const { prisma } = services;
  const existing = await prisma.user.findUnique({ where: { email } });
  if (!existing) {
    const user = await prisma.user
      .create({
        data: { email, passwordHash: await hashPassword(admin.password), role: "admin", currentPlanId: "subscription_enterprise" },
      })
      .catch((error: unknown) => {
        // Another instance starting at the same moment created it first: take the update path.
        if (isUniqueViolation(error)) return null;
        throw error;
      });
    if (!user) return ensureAdminAccount(services);
    await prisma.auditLog.create({ data: { action: "admin.bootstrap_created", targetType: "user", targetId: user.id } });
    return;
  }
  const passwordMatches = await verifyPassword(existing.passwordHash, admin.password);
  if (existing.role === "admin" && existing.status === "active" && passwordMatches) return;
  await prisma.user.update({
    where: { id: existing.id },
    data: { role: "admin", status: "active", ...(passwordMatches ? {} : { passwordHash: await hashPassword(admin.password) }) },
  });
  await prisma.auditLog.create({ data: { action: "admin.bootstrap_updated", targetType: "user", targetId: existing.id } });
}

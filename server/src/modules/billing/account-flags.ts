// The admin's view of account flags (reverse-payment.ts raises them when a refund or chargeback finds the
// credits already spent, unmatched-payment.ts when a confirmed payment granted nothing): a paginated list, open by default, filterable by account, with the account's
// e-mail and the order in words; and resolving one with a note, once (a second resolve is a 409), audited.
import type { AccountFlag as FlagRow, Prisma } from "@adgen/prisma";
import { type AccountFlagList, AccountFlagListQuery, AccountFlagResolveInput, type AccountFlagView } from "@adgen/schema";
import type { z } from "zod";
import type { Services, Tx } from "../../request-context.ts";
import { AppError, Errors, parseInput } from "../../errors.ts";
import { auditAdminRead } from "../audit/admin-audit.ts";
import { type ActingAccount, type AuditSource, auditSourceFor, recordAudit } from "../audit/record-audit.ts";
import { describeOrder } from "./products.ts";

type FlagWithUser = FlagRow & { user: { email: string } | null };

/** Flags as the console shows them: the orders and the resolving admins looked up in one query each. */
async function toViews(db: Tx, rows: FlagWithUser[]): Promise<AccountFlagView[]> {
  const orderIds = [...new Set(rows.map((r) => r.orderId).filter((id): id is string => id !== null))];
  const adminIds = [...new Set(rows.map((r) => r.resolvedById).filter((id): id is string => id !== null))];
  const [orders, admins] = await Promise.all([
    orderIds.length ? db.order.findMany({ where: { id: { in: orderIds } } }) : [],
    adminIds.length ? db.user.findMany({ where: { id: { in: adminIds } }, select: { id: true, email: true } }) : [],
  ]);
  const orderById = new Map(orders.map((o) => [o.id, o]));
  const adminEmail = new Map(admins.map((a) => [a.id, a.email]));
  return rows.map((row) => {
    const order = row.orderId ? orderById.get(row.orderId) : undefined;
    return {
      id: row.id,
      userId: row.userId,
      email: row.user?.email ?? null,
      kind: row.kind,
      message: row.message,
      orderId: row.orderId,
      order: order
        ? {
            id: order.id,
            description: describeOrder(order),
            provider: order.provider,
            amountCents: Number(order.amountCents),
            currency: order.currency,
            status: order.status,
          }
        : null,
      createdAt: row.createdAt.toISOString(),
      resolvedAt: row.resolvedAt?.toISOString() ?? null,
      resolvedByEmail: row.resolvedById ? (adminEmail.get(row.resolvedById) ?? null) : null,
      resolutionNote: row.resolutionNote,
    };
  });
}

export async function listAccountFlags(
  services: Services,
  source: AuditSource,
  input: z.input<typeof AccountFlagListQuery>,
): Promise<AccountFlagList> {
  const { status, userId, page, pageSize } = parseInput(AccountFlagListQuery, input);
  const { prisma } = services;
  const where: Prisma.AccountFlagWhereInput = {
    ...(status === "open" ? { resolvedAt: null } : status === "resolved" ? { resolvedAt: { not: null } } : {}),
    ...(userId ? { userId } : {}),
  };
  const [rows, total, openTotal] = await Promise.all([
    prisma.accountFlag.findMany({
      where,
      include: { user: { select: { email: true } } },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (page - 1) * pageSize,
      take: pageSize,
    }),
    prisma.accountFlag.count({ where }),
    prisma.accountFlag.count({ where: { resolvedAt: null } }),
  ]);
  await auditAdminRead(services, source, "admin.flags_viewed", { status, userId: userId ?? null, page });
  return {
    flags: await toViews(prisma, rows),
    page,
    pageSize,
    total,
    totalPages: Math.max(1, Math.ceil(total / pageSize)),
    openTotal,
  };
}

export async function resolveAccountFlag(
  services: Services,
  admin: ActingAccount,
  input: z.input<typeof AccountFlagResolveInput>,
): Promise<AccountFlagView> {
  const { flagId, note } = parseInput(AccountFlagResolveInput, input);
  return services.prisma.$transaction(async (tx) => {
    // Conditional: of two admins resolving at once, one resolves and the other is told it already was.
    const resolved = await tx.accountFlag.updateMany({
      where: { id: flagId, resolvedAt: null },
      data: { resolvedAt: new Date(), resolvedById: admin.id, resolutionNote: note },
    });
    const row = await tx.accountFlag.findUnique({ where: { id: flagId }, include: { user: { select: { email: true } } } });
    if (!row) throw Errors.notFound("Account flag");
    if (resolved.count === 0) {
      throw new AppError(
        "CONFLICT",
        `This flag was already resolved on ${row.resolvedAt?.toISOString().slice(0, 10) ?? "an earlier date"}`,
      );
    }
    await recordAudit(tx, auditSourceFor(admin), {
      action: "admin.flag_resolved",
      // A flag on no account (an unmatched payment naming none) is its own target.
      ...(row.userId ? { targetType: "user", targetId: row.userId } : { targetType: "account_flag", targetId: row.id }),
      metadata: { flagId: row.id, kind: row.kind, orderId: row.orderId, note },
    });
    const [view] = await toViews(tx, [row]);
    return view!;
  });
}

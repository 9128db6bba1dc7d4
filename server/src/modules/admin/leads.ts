// Leads: added by an admin (or found by the lead-list workflow), validated, one per e-mail address.
import type { Lead as LeadRow, Prisma } from "@adgen/prisma";
import { type Lead, LeadInput, LeadListQuery, type LeadList } from "@adgen/schema";
import type { z } from "zod";
import type { Services, Tx } from "../../request-context.ts";
import { parseInput } from "../../errors.ts";
import { type ActingAccount, type AuditSource, auditSourceFor, recordAudit } from "../audit/record-audit.ts";
import { auditAdminRead } from "../audit/admin-audit.ts";

export const toLead = (row: LeadRow): Lead => ({
  id: row.id,
  email: row.email,
  name: row.name,
  company: row.company,
  note: row.note,
  source: row.source,
  createdAt: row.createdAt.toISOString(),
});

/**
 * Adds a lead unless one with this e-mail exists; then nothing is added, and only its empty fields are
 * filled in. Race-free: the insert is conditional on the unique e-mail.
 */
export async function saveLead(db: Tx, lead: LeadInput, createdById: string | null): Promise<{ lead: LeadRow; created: boolean }> {
  const inserted = await db.$queryRaw<{ id: string }[]>`
    INSERT INTO leads (id, email, name, company, note, source, created_by_id, updated_at)
    VALUES (gen_random_uuid()::text, ${lead.email}, ${lead.name ?? null}, ${lead.company ?? null}, ${lead.note ?? null},
            ${lead.source}, ${createdById}, now())
    ON CONFLICT (email) DO NOTHING RETURNING id`;
  if (inserted[0]) return { lead: await db.lead.findUniqueOrThrow({ where: { id: inserted[0].id } }), created: true };
  const existing = await db.lead.findUniqueOrThrow({ where: { email: lead.email } });
  const fill: Prisma.LeadUpdateInput = {};
  if (!existing.name && lead.name) fill.name = lead.name;
  if (!existing.company && lead.company) fill.company = lead.company;
  if (!existing.note && lead.note) fill.note = lead.note;
  const updated = Object.keys(fill).length ? await db.lead.update({ where: { id: existing.id }, data: fill }) : existing;
  return { lead: updated, created: false };
}

export async function addLead(services: Services, admin: ActingAccount, input: z.input<typeof LeadInput>) {
  const lead = parseInput(LeadInput, input);
  return services.prisma.$transaction(async (tx) => {
    const saved = await saveLead(tx, lead, admin.id);
    await recordAudit(tx, auditSourceFor(admin), {
      action: saved.created ? "admin.lead_added" : "admin.lead_duplicate",
      targetType: "lead",
      targetId: saved.lead.id,
      metadata: { email: lead.email },
    });
    return { lead: toLead(saved.lead), created: saved.created };
  });
}

export async function listLeads(services: Services, source: AuditSource, input: z.input<typeof LeadListQuery>): Promise<LeadList> {
  const { page, pageSize, search } = parseInput(LeadListQuery, input);
  const pattern = search?.replace(/[\\%_]/g, "\\$&");
  const where: Prisma.LeadWhereInput = pattern
    ? {
        OR: [
          { email: { contains: pattern.toLowerCase() } },
          { name: { contains: pattern, mode: "insensitive" } },
          { company: { contains: pattern, mode: "insensitive" } },
        ],
      }
    : {};
  const { prisma } = services;
  const [total, rows] = await Promise.all([
    prisma.lead.count({ where }),
    prisma.lead.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "asc" }], skip: (page - 1) * pageSize, take: pageSize }),
  ]);
  await auditAdminRead(services, source, "admin.leads_viewed", { page, ...(search ? { search } : {}) });
  return { leads: rows.map(toLead), page, pageSize, total, totalPages: Math.max(1, Math.ceil(total / pageSize)) };
}

// What the admin reports say about outgoing mail: whether a server is configured, and the outbox by status.
import type { Services } from "../../request-context.ts";
import { smtpServerName } from "./smtp-transport.ts";

export interface MailStatus {
  configured: boolean;
  /** scheme://host:port of SMTP_URL (no credentials), or null. */
  server: string | null;
  from: string;
  pending: number;
  sent: number;
  failed: number;
  /** The most recent delivery error still on a row, or null. */
  lastError: string | null;
}

export async function mailStatus(services: Services): Promise<MailStatus> {
  const { prisma, config } = services;
  const [counts, latestError] = await Promise.all([
    prisma.mailOutbox.groupBy({ by: ["status"], _count: { _all: true } }),
    prisma.mailOutbox.findFirst({
      where: { lastError: { not: null } },
      orderBy: { nextAttemptAt: "desc" },
      select: { lastError: true },
    }),
  ]);
  const count = (status: string) => counts.find((row) => row.status === status)?._count._all ?? 0;
  return {
    configured: config.mail.smtpUrl !== null,
    server: smtpServerName(config.mail),
    from: config.mail.from,
    pending: count("pending"),
    sent: count("sent"),
    failed: count("failed"),
    lastError: latestError?.lastError ?? null,
  };
}

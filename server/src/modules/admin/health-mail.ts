// Outgoing mail in GET /admin/health: `unconfigured` without SMTP_URL (the e-mails wait in mail_outbox, and
// the detail says how many), else the SMTP server is connected to and authenticated with, without sending.
import type { AdminHealth } from "@adgen/schema";
import type { Services } from "../../request-context.ts";
import { mailStatus } from "../mail/mail-status.ts";
import { createMailer } from "../mail/smtp-transport.ts";

type Check = AdminHealth["checks"][number];

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export async function checkMail(services: Services): Promise<Check> {
  const status = await mailStatus(services);
  const outbox = `${plural(status.pending, "e-mail")} pending, ${status.failed} given up`;
  const mailer = createMailer(services.config.mail);
  if (!mailer) {
    return {
      name: "mail",
      status: "unconfigured",
      latencyMs: 0,
      detail: `not configured (SMTP_URL is not set): nothing is sent; ${outbox}`,
    };
  }
  const started = performance.now();
  try {
    await mailer.verify();
    const last = status.lastError ? `; last error: ${status.lastError.slice(0, 200)}` : "";
    return {
      name: "mail",
      status: "ok",
      latencyMs: Math.round((performance.now() - started) * 100) / 100,
      detail: `${status.server} accepted the connection; ${outbox}${last}`,
    };
  } catch (error) {
    return {
      name: "mail",
      status: "error",
      latencyMs: Math.round((performance.now() - started) * 100) / 100,
      detail: `${status.server}: ${(error as Error).message.slice(0, 300)}; ${outbox}`,
    };
  } finally {
    mailer.close();
  }
}

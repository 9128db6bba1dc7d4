// The one way out for e-mail: SMTP through nodemailer, to the server SMTP_URL names. Nothing here knows
// about the outbox; deliver-mail.ts decides what to send and records what happened.
import type { Transporter } from "nodemailer";
import type { MailConfig } from "../../config/env.ts";

export interface OutgoingMail {
  to: string;
  subject: string;
  body: string;
}

export interface Mailer {
  /** Sends one message; answers the Message-ID the server accepted, or throws with the server's reason. */
  send(mail: OutgoingMail): Promise<string>;
  /** Connects and authenticates without sending (the health check). */
  verify(): Promise<void>;
  close(): void;
}

/** Seconds a silent SMTP server is given before an attempt counts as failed. */
const TIMEOUT_MS = 15_000;

/** A mailer for the configured server, or null when SMTP_URL is not set (mail then waits in the outbox). */
export function createMailer(config: MailConfig): Mailer | null {
  if (!config.smtpUrl) return null;
  const smtpUrl = config.smtpUrl;
  // nodemailer is loaded when mail is first sent or checked, not at start-up.
  let transporter: Promise<Transporter> | null = null;
  const transport = () =>
    (transporter ??= import("nodemailer").then(({ default: nodemailer }) =>
      nodemailer.createTransport(smtpUrl, {
        connectionTimeout: TIMEOUT_MS,
        greetingTimeout: TIMEOUT_MS,
        socketTimeout: TIMEOUT_MS,
      }),
    ));
  return {
    async send(mail) {
      const info = await (await transport()).sendMail({ from: config.from, to: mail.to, subject: mail.subject, text: mail.body });
      return info.messageId;
    },
    async verify() {
      await (await transport()).verify();
    },
    close: () => void transporter?.then((t) => t.close()),
  };
}

/** The SMTP server's host and port, for logs and reports (never its user name or password). */
export function smtpServerName(config: MailConfig): string | null {
  if (!config.smtpUrl) return null;
  const url = new URL(config.smtpUrl);
  return `${url.protocol}//${url.hostname}${url.port ? `:${url.port}` : ""}`;
}

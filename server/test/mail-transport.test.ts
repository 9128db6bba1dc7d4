// The mail transport: rows of mail_outbox are sent through SMTP_URL by the workers' sweep, against a real
// SMTP server stand-in (smtp-server) on a random local port. It checks what arrives (envelope, sender,
// subject, body, the credentials of SMTP_URL), that a 5xx is recorded and retried with backoff until the
// last attempt, and that without SMTP_URL nothing is sent and the admin reports say mail is not configured.
import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverDueMail, MAIL_MAX_ATTEMPTS, retryDelayMs } from "../src/modules/mail/deliver-mail.ts";
import { queueMail } from "../src/modules/notifications/mail-outbox.ts";
import { ADMIN_ENV, adminClient, eventually } from "./support/accounts.ts";
import type { RestClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

interface Received {
  from: string;
  to: string[];
  user: string | undefined;
  message: ParsedMail;
}

const received: Received[] = [];
let refuse: string | null = null;
let smtp: SMTPServer;
let smtpPort: number;
let app: TestApp;
let unconfigured: TestApp;

beforeAll(async () => {
  smtp = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === "mailer" && auth.password === "s3cret pass") return callback(null, { user: auth.username });
      return callback(new Error("Invalid username or password"));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        if (refuse) {
          return callback(Object.assign(new Error(refuse), { responseCode: 554 }));
        }
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          user: session.user as string | undefined,
          message: await simpleParser(Buffer.concat(chunks)),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
  [app, unconfigured] = await Promise.all([
    startTestApp({
      ...ADMIN_ENV,
      WORKERS: "1",
      SMTP_URL: `smtp://mailer:${encodeURIComponent("s3cret pass")}@127.0.0.1:${smtpPort}`,
      MAIL_FROM: "AdGen Trust <trust@adgen.example>",
    }),
    startTestApp({ ...ADMIN_ENV, WORKERS: "1" }),
  ]);
});
afterAll(async () => {
  await Promise.all([app?.close(), unconfigured?.close()]);
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

async function queue(target: TestApp, to: string, subject: string, body: string) {
  await queueMail(target.services.prisma, { to, subject, body, kind: "test.mail" });
  return target.services.prisma.mailOutbox.findFirstOrThrow({ where: { to } });
}
const row = (target: TestApp, id: string) => target.services.prisma.mailOutbox.findUniqueOrThrow({ where: { id } });

describe("with SMTP_URL", () => {
  it("the sweep sends a queued e-mail: recipient, sender, subject and body arrive, and the row is marked sent", async () => {
    const body = "We have decided on your notice DSA-ABCDEFGHJK.\n\nStatement of reasons:\nThe ad copies a trademark.\n";
    const mail = await queue(app, "rita@reporter.example", "Your notice DSA-ABCDEFGHJK: decision", body);
    const sent = await eventually(async () => {
      const current = await row(app, mail.id);
      expect(current.status).toBe("sent");
      return current;
    }, 10_000);
    const arrived = received.find((item) => item.to.includes("rita@reporter.example"));
    expect(arrived).toBeDefined();
    expect(arrived!.to).toEqual(["rita@reporter.example"]);
    expect(arrived!.from).toBe("trust@adgen.example");
    expect(arrived!.user).toBe("mailer");
    expect(arrived!.message.subject).toBe("Your notice DSA-ABCDEFGHJK: decision");
    expect(arrived!.message.text).toBe(body);
    expect(arrived!.message.from?.text).toBe('"AdGen Trust" <trust@adgen.example>');
    expect(sent).toMatchObject({ attempts: 1, lastError: null, messageId: arrived!.message.messageId });
    expect(sent.sentAt!.getTime()).toBeGreaterThan(mail.createdAt.getTime() - 1000);
  });

  it("a 5xx from the server is recorded and retried later; after the last attempt the row is failed", async () => {
    refuse = "Message rejected: policy violation";
    const mail = await queue(app, "owner@refused.example", "A moderation decision", "Statement of reasons: …");
    // The sweep's first attempt is refused; the row keeps the server's reason and waits a minute.
    const first = await eventually(async () => {
      const current = await row(app, mail.id);
      expect(current.attempts).toBe(1);
      return current;
    }, 10_000);
    expect(first.status).toBe("pending");
    expect(first.sentAt).toBeNull();
    expect(first.lastError).toMatch(/554.*policy violation/);
    expect(first.nextAttemptAt.getTime() - Date.now()).toBeGreaterThan(retryDelayMs(1) - 5_000);
    // Nothing is due before then: a run now leaves it alone.
    await deliverDueMail(app.services);
    expect((await row(app, mail.id)).attempts).toBe(1);

    // Each later attempt comes when it is due, with a growing delay, until the last one gives up.
    let current = first;
    for (let attempt = 2; attempt <= MAIL_MAX_ATTEMPTS; attempt++) {
      const due = current.nextAttemptAt;
      await deliverDueMail(app.services, { now: due });
      current = await row(app, mail.id);
      expect(current.attempts).toBe(attempt);
      if (attempt < MAIL_MAX_ATTEMPTS) {
        expect(current.status).toBe("pending");
        expect(current.nextAttemptAt.getTime() - due.getTime()).toBe(retryDelayMs(attempt));
      }
    }
    expect(current).toMatchObject({ status: "failed", attempts: MAIL_MAX_ATTEMPTS, sentAt: null });
    expect(current.lastError).toMatch(/554/);
    // A given-up row is not tried again.
    await deliverDueMail(app.services, { now: new Date(Date.now() + 86_400_000) });
    expect((await row(app, mail.id)).attempts).toBe(MAIL_MAX_ATTEMPTS);
    expect(received.some((item) => item.to.includes("owner@refused.example"))).toBe(false);
  });

  it("a refused attempt followed by an accepted one delivers the e-mail once", async () => {
    refuse = "Temporary policy refusal";
    const mail = await queue(app, "retry@owner.example", "Retried", "Second time lucky.");
    const first = await eventually(async () => {
      const current = await row(app, mail.id);
      expect(current.attempts).toBe(1);
      return current;
    }, 10_000);
    refuse = null;
    const run = await deliverDueMail(app.services, { now: first.nextAttemptAt });
    expect(run).toMatchObject({ configured: true, sent: 1, failed: 0 });
    expect(await row(app, mail.id)).toMatchObject({ status: "sent", attempts: 2, lastError: null });
    expect(received.filter((item) => item.to.includes("retry@owner.example"))).toHaveLength(1);
  });

  it("the admin reports show mail configured, the server without its password, and the outbox", async () => {
    const admin = await adminClient(app);
    const health = await admin.get("/admin/health");
    expect(health.status).toBe(200);
    const check = health.body.data.checks.find((c: { name: string }) => c.name === "mail");
    expect(check).toMatchObject({ status: "ok", detail: expect.stringContaining(`smtp://127.0.0.1:${smtpPort} accepted the connection`) });
    expect(check.latencyMs).toBeGreaterThan(0);
    const system = await admin.get("/admin/system");
    expect(system.body.data.mail).toMatchObject({
      configured: true,
      server: `smtp://127.0.0.1:${smtpPort}`,
      from: "AdGen Trust <trust@adgen.example>",
      sent: 2,
      failed: 1,
    });
    expect(JSON.stringify([health.body, system.body])).not.toContain("s3cret");
  });
});

describe("without SMTP_URL", () => {
  let admin: RestClient;
  beforeAll(async () => {
    admin = await adminClient(unconfigured);
  });

  it("rows stay pending through the sweeps and nothing is sent", async () => {
    const before = received.length;
    const mail = await queue(unconfigured, "nobody@waiting.example", "Waiting", "No server to send me.");
    // Two more sweeps (the agents record each) have run since the row was written.
    const runs = async () =>
      (await unconfigured.services.prisma.agentState.findUniqueOrThrow({ where: { agentId: "review-expiry" } })).runs;
    const start = await eventually(runs, 10_000);
    await eventually(async () => expect(await runs()).toBeGreaterThanOrEqual(start + 2), 10_000);
    expect(await row(unconfigured, mail.id)).toMatchObject({ status: "pending", attempts: 0, sentAt: null, lastError: null });
    expect(await deliverDueMail(unconfigured.services)).toEqual({ configured: false, sent: 0, failed: 0, givenUp: 0 });
    expect(received.length).toBe(before);
  });

  it("the admin health and system reports say mail is not configured", async () => {
    const health = await admin.get("/admin/health");
    const check = health.body.data.checks.find((c: { name: string }) => c.name === "mail");
    expect(check).toEqual({
      name: "mail",
      status: "unconfigured",
      latencyMs: 0,
      detail: "not configured (SMTP_URL is not set): nothing is sent; 1 e-mail pending, 0 given up",
    });
    const system = await admin.get("/admin/system");
    expect(system.body.data.mail).toEqual({
      configured: false,
      server: null,
      from: "AdGen <no-reply@localhost>",
      pending: 1,
      sent: 0,
      failed: 0,
      lastError: null,
    });
  });
});

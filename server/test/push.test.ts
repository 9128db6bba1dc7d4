// Web Push against a push-service stand-in at the network edge (msw). The stand-in does what a real push
// service does with a message: it refuses one without a valid VAPID header (RFC 8292: `vapid t=<JWT>,
// k=<public key>`, the JWT signed ES256 by that key, for this origin, not expired), and it stores the
// aes128gcm body, which the test decrypts with the subscription's private key (RFC 8291) to read the
// message a browser would show. Subscriptions answering 404 or 410 are pruned.
import { createECDH, createHmac, createDecipheriv, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { importJWK, jwtVerify } from "jose";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Resolver } from "../src/modules/net/safe-fetch.ts";
import { type Account, ADMIN_ENV, adminClient, eventually, signUp } from "./support/accounts.ts";
import type { RestClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

const DNS: Record<string, string[]> = { "push.example": ["151.101.1.69"], "intranet.example": ["10.0.0.7"] };
const resolver: Resolver = async (host) => {
  const answer = DNS[host];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return answer;
};

/** A browser's side of a subscription: its key pair and auth secret. */
function browserSubscription(path: string) {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    ecdh,
    auth,
    json: {
      endpoint: `https://push.example/${path}`,
      expirationTime: null,
      keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url") },
    },
  };
}
type Browser = ReturnType<typeof browserSubscription>;

const hmac = (key: Buffer, data: Buffer) => createHmac("sha256", key).update(data).digest();

/** RFC 8291 + RFC 8188: decrypts one aes128gcm record with the browser's private key and auth secret. */
function decrypt(body: Buffer, browser: Browser): string {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const serverPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const ecdhSecret = browser.ecdh.computeSecret(serverPublic);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), browser.ecdh.getPublicKey(), serverPublic]);
  const ikm = hmac(hmac(browser.auth, ecdhSecret), Buffer.concat([keyInfo, Buffer.from([1])]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from("Content-Encoding: aes128gcm\0\x01")).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from("Content-Encoding: nonce\0\x01")).subarray(0, 12);
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02 and any zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  expect(padded[end], "last-record delimiter").toBe(2);
  return padded.subarray(0, end).toString("utf8");
}

/** Checks the VAPID header as a push service does; answers the reason it is not valid, or null. */
async function vapidProblem(request: Request): Promise<string | null> {
  const header = request.headers.get("authorization") ?? "";
  const match = header.match(/^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/);
  if (!match) return `not a VAPID header: ${header}`;
  const raw = Buffer.from(match[2]!, "base64url");
  if (raw.length !== 65 || raw[0] !== 4) return "k is not an uncompressed P-256 point";
  const key = await importJWK(
    { kty: "EC", crv: "P-256", x: raw.subarray(1, 33).toString("base64url"), y: raw.subarray(33).toString("base64url") },
    "ES256",
  );
  try {
    const { payload } = await jwtVerify(match[1]!, key, { algorithms: ["ES256"], audience: new URL(request.url).origin });
    if (!String(payload.sub).startsWith("mailto:")) return "sub is not a mailto: contact";
    if (!payload.exp || payload.exp > Date.now() / 1000 + 24 * 3600) return "exp missing or more than 24 h ahead";
  } catch (error) {
    return `JWT does not verify: ${(error as Error).message}`;
  }
  return null;
}

interface Delivered {
  path: string;
  vapidKey: string;
  body: Buffer;
}
const delivered: Delivered[] = [];
const refused: string[] = [];

const network = setupServer(
  http.post("https://push.example/:path", async ({ request, params }) => {
    const path = String(params.path);
    if (path.startsWith("gone")) return new HttpResponse(null, { status: 410 });
    if (path.startsWith("unknown")) return new HttpResponse(null, { status: 404 });
    const problem = await vapidProblem(request);
    if (problem) {
      refused.push(problem);
      return new HttpResponse(problem, { status: 403 });
    }
    if (request.headers.get("content-encoding") !== "aes128gcm") return new HttpResponse("unsupported encoding", { status: 415 });
    if (!request.headers.get("ttl")) return new HttpResponse("TTL required", { status: 400 });
    const vapidKey = request.headers.get("authorization")!.split("k=")[1]!;
    delivered.push({ path, vapidKey, body: Buffer.from(await request.arrayBuffer()) });
    return new HttpResponse(null, { status: 201 });
  }),
);

let app: TestApp;
let admin: RestClient;
let user: Account;
let other: Account;

beforeAll(async () => {
  network.listen({
    onUnhandledRequest(request, print) {
      if (new URL(request.url).hostname !== "127.0.0.1") print.error();
    },
  });
  app = await startTestApp({ ...ADMIN_ENV, WORKERS: "1", STUDIO_MAX_AD_SECONDS: "2" }, { resolver });
  admin = await adminClient(app);
  [user, other] = await Promise.all([signUp(app, "push-user"), signUp(app, "push-other")]);
}, 60_000);
afterAll(async () => {
  await app?.close();
  network.close();
});

const messagesAt = (browser: Browser) =>
  delivered.filter((d) => d.path === new URL(browser.json.endpoint).pathname.slice(1)).map((d) => JSON.parse(decrypt(d.body, browser)));

describe("subscribing", () => {
  it("refuses what is not a Web Push subscription, naming the field", async () => {
    const good = browserSubscription("valid").json;
    const cases: [unknown, RegExp][] = [
      [{}, /subscription/],
      [{ ...good, endpoint: "http://push.example/x" }, /endpoint must be an https:\/\/ address/],
      [{ ...good, endpoint: "not a url" }, /endpoint must be an https:\/\/ address/],
      [{ ...good, keys: { ...good.keys, p256dh: "abc" } }, /p256dh must encode 65 bytes/],
      [{ ...good, keys: { ...good.keys, auth: "has spaces!" } }, /auth must be base64url/],
      [{ ...good, keys: undefined }, /keys/],
      [{ ...good, endpoint: "https://intranet.example/x" }, /private|local/],
    ];
    for (const [subscription, message] of cases) {
      const res = await user.client.post("/notifications/subscribe", { subscription });
      expect({ subscription, status: res.status, error: res.body.error }).toEqual({
        subscription,
        status: 400,
        error: expect.stringMatching(message),
      });
    }
    expect(await app.services.prisma.pushSubscription.count()).toBe(0);
    const anonymous = await fetch(`${app.url}/api/notifications/subscribe`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ subscription: good }),
    });
    expect(anonymous.status).toBe(401);
  });

  it("keeps the VAPID key pair generated once in DATA_DIR and answers its public key", async () => {
    const browser = browserSubscription("status-check");
    const res = await user.client.post("/notifications/subscribe", { subscription: browser.json });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const stored = JSON.parse(readFileSync(join(app.config.dataDir, "secrets", "vapid.json"), "utf8"));
    expect(res.body.data).toMatchObject({ subscribed: true, endpoint: browser.json.endpoint, vapidPublicKey: stored.publicKey });
    expect((await user.client.get("/notifications/subscribe")).body.data).toEqual({ vapidPublicKey: stored.publicKey, subscriptions: 1 });
    const off = await user.client.call("DELETE", "/notifications/subscribe", { endpoint: browser.json.endpoint });
    expect(off.body.data).toEqual({ unsubscribed: true, removed: 1 });
    expect((await user.client.get("/notifications/subscribe")).body.data.subscriptions).toBe(0);
  });
});

describe("sending", () => {
  it("delivers an encrypted message with a valid VAPID header, and prunes subscriptions answering 404 or 410", async () => {
    const phone = browserSubscription("phone");
    const gone = browserSubscription("gone-1");
    const unknown = browserSubscription("unknown-1");
    for (const browser of [phone, gone, unknown]) {
      expect((await user.client.post("/notifications/subscribe", { subscription: browser.json })).status).toBe(200);
    }
    const res = await user.client.post("/notifications/send", {
      title: "Hello from AdGen",
      body: "Push works on this phone",
      url: "/dashboard",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ sent: 1, failed: 0, pruned: 2 });
    expect(refused).toEqual([]);
    expect(messagesAt(phone)).toEqual([{ title: "Hello from AdGen", body: "Push works on this phone", url: "/dashboard", tag: "manual" }]);
    const stored = JSON.parse(readFileSync(join(app.config.dataDir, "secrets", "vapid.json"), "utf8"));
    expect(delivered.at(-1)!.vapidKey).toBe(stored.publicKey);
    const left = await app.services.prisma.pushSubscription.findMany({ where: { userId: user.id } });
    expect(left.map((s) => s.endpoint)).toEqual([phone.json.endpoint]);
  });

  it("sends to another account only for an admin (403 otherwise), audited", async () => {
    const laptop = browserSubscription("other-laptop");
    expect((await other.client.post("/notifications/subscribe", { subscription: laptop.json })).status).toBe(200);
    const refusedSend = await user.client.post("/notifications/send", { userId: other.id, title: "Spam" });
    expect(refusedSend).toMatchObject({ status: 403, body: { error: "admin access required to notify another account" } });
    expect(messagesAt(laptop)).toEqual([]);

    const sent = await admin.post("/notifications/send", { userId: other.id, title: "Scheduled maintenance", body: "Tonight 22:00 UTC" });
    expect(sent.body.data).toEqual({ sent: 1, failed: 0, pruned: 0 });
    expect(messagesAt(laptop)).toEqual([{ title: "Scheduled maintenance", body: "Tonight 22:00 UTC", tag: "manual" }]);
    const audit = await app.services.prisma.auditLog.findMany({ where: { action: "admin.notification_sent", targetId: other.id } });
    expect(audit).toHaveLength(1);
    expect((await admin.post("/notifications/send", { userId: "no-such-user", title: "x" })).status).toBe(404);
    expect((await user.client.post("/notifications/send", { title: "" })).body.error).toMatch(/Give the notification a title/);
  });

  it("a push service that refuses the VAPID header counts as failed and keeps the subscription", async () => {
    // A subscription whose keys are fine but whose push service rejects everything (a 403 stand-in path).
    const before = refused.length;
    network.use(http.post("https://push.example/strict", () => new HttpResponse("bad jwt", { status: 403 }), { once: true }));
    const strict = browserSubscription("strict");
    await other.client.post("/notifications/subscribe", { subscription: strict.json });
    const res = await other.client.post("/notifications/send", { title: "Try" });
    expect(res.body.data).toEqual({ sent: 1, failed: 1, pruned: 0 });
    expect(refused.length).toBe(before);
    expect(await app.services.prisma.pushSubscription.count({ where: { endpoint: strict.json.endpoint } })).toBe(1);
  });
});

describe("job notifications", () => {
  it("a finished job and a failed job notify their owner", { timeout: 120_000 }, async () => {
    const owner = await signUp(app, "push-jobs");
    const browser = browserSubscription("jobs-browser");
    expect((await owner.client.post("/notifications/subscribe", { subscription: browser.json })).status).toBe(200);

    const done = await owner.client.post("/workflow", { type: "staticad", concept: "Fresh sourdough every morning", formats: ["1:1"] });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const doneId = done.body.data.jobId as string;
    const completed = await eventually(() => {
      const found = messagesAt(browser).find((m) => m.tag === `job-${doneId}`);
      expect(found).toBeDefined();
      return found;
    }, 90_000);
    expect(completed).toEqual({
      title: expect.stringMatching(/is ready$/),
      body: expect.any(String),
      url: `/studio/jobs/${doneId}`,
      tag: `job-${doneId}`,
    });
    expect((await owner.client.get(`/workflow/job?jobId=${doneId}`)).body.data.status).toBe("completed");

    // Paused for review, then rejected: the job fails (credits refunded) and the owner is told.
    const review = await owner.client.post("/workflow", {
      type: "staticad",
      concept: "Winter coats for city cyclists",
      formats: ["1:1"],
      hitl: true,
    });
    const reviewId = review.body.data.jobId as string;
    await eventually(
      async () => expect((await owner.client.get(`/workflow/job?jobId=${reviewId}`)).body.data.status).toBe("awaiting_review"),
      60_000,
    );
    expect((await owner.client.post("/workflow/hitl", { jobId: reviewId, action: "reject" })).status).toBe(200);
    const failed = await eventually(() => {
      const found = messagesAt(browser).find((m) => m.tag === `job-${reviewId}`);
      expect(found).toBeDefined();
      return found;
    }, 30_000);
    expect(failed).toMatchObject({ title: expect.stringMatching(/failed$/), url: `/studio/jobs/${reviewId}` });
  });
});

// Inbound webhook signatures (CONTRACT "Webhook signatures"): HMAC-SHA256 over the raw body bytes,
// compared in constant time; Stripe and Paddle also sign a timestamp, accepted within 300 s either way.
import { createHmac, timingSafeEqual } from "node:crypto";

export const SIGNATURE_TOLERANCE_SECONDS = 300;

export type WebhookProvider = "stripe" | "paddle" | "lemonsqueezy" | "meta";

/** Why a signature was refused, in words for the sender's logs (never which byte differed). */
export class SignatureError extends Error {}

const hmacHex = (secret: string, ...parts: (string | Uint8Array)[]) => {
  const mac = createHmac("sha256", secret);
  for (const part of parts) mac.update(part);
  return mac.digest();
};

/** Constant-time: a hex string of the wrong length or with non-hex characters simply does not match. */
function matches(expected: Buffer, givenHex: string): boolean {
  if (!/^[0-9a-f]+$/i.test(givenHex) || givenHex.length !== expected.length * 2) return false;
  return timingSafeEqual(expected, Buffer.from(givenHex, "hex"));
}

/** `k=v` pairs of a signature header, each key possibly repeated (Stripe sends several `v1` while rotating). */
function pairs(header: string, separator: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of header.split(separator)) {
    const at = part.indexOf("=");
    if (at <= 0) continue;
    const key = part.slice(0, at).trim();
    map.set(key, [...(map.get(key) ?? []), part.slice(at + 1).trim()]);
  }
  return map;
}

function checkTimestamp(value: string | undefined, nowSeconds: number, header: string): string {
  if (!value || !/^\d{1,12}$/.test(value)) throw new SignatureError(`${header} has no timestamp`);
  if (Math.abs(nowSeconds - Number(value)) > SIGNATURE_TOLERANCE_SECONDS) {
    throw new SignatureError(`${header} timestamp is more than ${SIGNATURE_TOLERANCE_SECONDS} s from the server's clock`);
  }
  return value;
}

export const SIGNATURE_HEADERS: Record<WebhookProvider, string> = {
  stripe: "Stripe-Signature",
  paddle: "Paddle-Signature",
  lemonsqueezy: "X-Signature",
  meta: "X-Hub-Signature-256",
};

/** Throws SignatureError unless `header` is a valid signature of `body` with `secret`. */
export function verifySignature(
  provider: WebhookProvider,
  secret: string,
  body: Uint8Array,
  header: string | undefined,
  nowSeconds = Math.floor(Date.now() / 1000),
): void {
  const name = SIGNATURE_HEADERS[provider];
  if (!header?.trim()) throw new SignatureError(`Missing ${name} header`);
  let valid = false;
  switch (provider) {
    case "stripe": {
      const fields = pairs(header, ",");
      const t = checkTimestamp(fields.get("t")?.[0], nowSeconds, name);
      const expected = hmacHex(secret, `${t}.`, body);
      valid = (fields.get("v1") ?? []).some((candidate) => matches(expected, candidate));
      break;
    }
    case "paddle": {
      const fields = pairs(header, ";");
      const ts = checkTimestamp(fields.get("ts")?.[0], nowSeconds, name);
      const expected = hmacHex(secret, `${ts}:`, body);
      valid = (fields.get("h1") ?? []).some((candidate) => matches(expected, candidate));
      break;
    }
    case "lemonsqueezy":
      valid = matches(hmacHex(secret, body), header.trim());
      break;
    case "meta": {
      const given = header.trim();
      valid = given.startsWith("sha256=") && matches(hmacHex(secret, body), given.slice("sha256=".length));
      break;
    }
  }
  if (!valid) throw new SignatureError(`${name} does not match the body`);
}

/** A signature header for `body`, as the provider would send it (for tests). */
export function signPayload(
  provider: WebhookProvider,
  secret: string,
  body: string | Uint8Array,
  timestamp = Math.floor(Date.now() / 1000),
): string {
  switch (provider) {
    case "stripe":
      return `t=${timestamp},v1=${hmacHex(secret, `${timestamp}.`, body).toString("hex")}`;
    case "paddle":
      return `ts=${timestamp};h1=${hmacHex(secret, `${timestamp}:`, body).toString("hex")}`;
    case "lemonsqueezy":
      return hmacHex(secret, body).toString("hex");
    case "meta":
      return `sha256=${hmacHex(secret, body).toString("hex")}`;
  }
}

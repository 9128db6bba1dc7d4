// The two webhook signature schemes the clip providers document, checked with node:crypto alone. Both take
// the raw body exactly as it arrived (re-serialised JSON would not verify) and refuse a timestamp more than
// five minutes from our clock, so a captured call cannot be replayed later.
import { createHash, createHmac, createPublicKey, timingSafeEqual, verify } from "node:crypto";

/** How far a webhook's timestamp may be from our clock. */
export const WEBHOOK_TOLERANCE_SEC = 5 * 60;

/** One public key of a JWKS (RFC 7517); fal publishes Ed25519 keys (`kty: OKP`, `crv: Ed25519`, base64url `x`). */
export interface Jwk {
  kty: string;
  crv?: string;
  x?: string;
  kid?: string;
}

/** The headers with lower-case names, so a lookup does not depend on how the server spelled them. */
export function lowerCaseHeaders(headers: Record<string, string | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

function freshTimestamp(value: string, nowMs: number): boolean {
  if (!/^\d{1,12}$/.test(value)) return false;
  return Math.abs(nowMs / 1000 - Number(value)) <= WEBHOOK_TOLERANCE_SEC;
}

/**
 * fal (https://docs.fal.ai/model-apis/model-endpoints/webhooks, "Verifying your webhook"): the hex
 * `X-Fal-Webhook-Signature` is an ED25519 signature over the lines request id, user id, timestamp and the
 * hex SHA-256 of the body, joined by "\n", by any key of fal's JWKS. Returns the request id when it verifies.
 */
export function verifyFalSignature(
  rawBody: Buffer,
  headers: Record<string, string | undefined>,
  keys: readonly Jwk[],
  nowMs = Date.now(),
): string | null {
  const h = lowerCaseHeaders(headers);
  const requestId = h["x-fal-webhook-request-id"];
  const userId = h["x-fal-webhook-user-id"];
  const timestamp = h["x-fal-webhook-timestamp"];
  const signatureHex = h["x-fal-webhook-signature"];
  if (!requestId || !userId || !timestamp || !signatureHex) return null;
  if (!freshTimestamp(timestamp, nowMs) || !/^[0-9a-f]{128}$/i.test(signatureHex)) return null;
  const digest = createHash("sha256").update(rawBody).digest("hex");
  const message = Buffer.from([requestId, userId, timestamp, digest].join("\n"));
  const signature = Buffer.from(signatureHex, "hex");
  for (const jwk of keys) {
    if (jwk.kty !== "OKP" || jwk.crv !== "Ed25519" || !jwk.x) continue;
    try {
      const key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: jwk.x }, format: "jwk" });
      if (verify(null, message, key, signature)) return requestId;
    } catch {
      // a key that does not import is skipped; another may verify
    }
  }
  return null;
}

/**
 * Standard Webhooks (https://www.standardwebhooks.com, used by Replicate:
 * https://replicate.com/docs/topics/webhooks/verify-webhook): `webhook-signature` lists space-separated
 * `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed by the base64 part of the `whsec_…` secret.
 * Returns the `webhook-id` when one signature matches.
 */
export function verifyStandardWebhook(
  rawBody: Buffer,
  headers: Record<string, string | undefined>,
  secret: string,
  nowMs = Date.now(),
): string | null {
  const h = lowerCaseHeaders(headers);
  const id = h["webhook-id"];
  const timestamp = h["webhook-timestamp"];
  const signatures = h["webhook-signature"];
  if (!id || !timestamp || !signatures || !freshTimestamp(timestamp, nowMs)) return null;
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  if (key.length === 0) return null;
  const expected = createHmac("sha256", key)
    .update(Buffer.concat([Buffer.from(`${id}.${timestamp}.`), rawBody]))
    .digest();
  for (const entry of signatures.split(" ")) {
    const [version, value] = entry.split(",", 2);
    if (version !== "v1" || !value) continue;
    const given = Buffer.from(value, "base64");
    if (given.length === expected.length && timingSafeEqual(given, expected)) return id;
  }
  return null;
}

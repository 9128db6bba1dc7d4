// The `session` cookie (and a JWT bearer) is an HS256 JWT naming a lucia session. The JWT alone is not
// enough: the session it names must still be live in the database, so logout revokes it at once.
import { createHash, randomBytes } from "node:crypto";
import { jwtVerify, SignJWT } from "jose";

const ISSUER = "adgen";

export function newSessionToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Sessions are stored under the SHA-256 of their token, so a database leak reveals no usable token. */
export function sha256Hex(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

export async function signSessionJwt(secret: Uint8Array, claims: { token: string; userId: string; expiresAt: Date }) {
  return new SignJWT({ sid: claims.token })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(Math.floor(claims.expiresAt.getTime() / 1000))
    .sign(secret);
}

export async function verifySessionJwt(
  secret: Uint8Array,
  jwt: string,
): Promise<{ token: string; userId: string; expiresAt: Date | null } | null> {
  try {
    const { payload } = await jwtVerify(jwt, secret, { issuer: ISSUER, algorithms: ["HS256"] });
    if (typeof payload.sid !== "string" || typeof payload.sub !== "string") return null;
    return { token: payload.sid, userId: payload.sub, expiresAt: typeof payload.exp === "number" ? new Date(payload.exp * 1000) : null };
  } catch {
    return null;
  }
}

// The session cookie (CONTRACT): `session`, always HttpOnly; Secure; SameSite=Lax; Path=/.
// Browsers accept Secure cookies on http://localhost, so development needs no exception.
import { SESSION_COOKIE } from "../modules/auth/authenticate.ts";

export function sessionCookie(jwt: string, expiresAt: Date): string {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  return `${SESSION_COOKIE}=${jwt}; HttpOnly; Secure; SameSite=Lax; Path=/; Max-Age=${maxAge}; Expires=${expiresAt.toUTCString()}`;
}

export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; HttpOnly; Secure; SameSite=Lax; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}

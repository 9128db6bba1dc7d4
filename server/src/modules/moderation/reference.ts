import { randomBytes } from "node:crypto";

// No 0/O or 1/I: a reference is read out over the phone and typed from paper.
const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** `DSA-` and 10 characters: what a reporter quotes back. */
export function newNoticeReference(): string {
  const bytes = randomBytes(10);
  return `DSA-${Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join("")}`;
}

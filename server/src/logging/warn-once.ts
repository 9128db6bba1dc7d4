// A warning worth saying once per process, not on every call that meets it: an unconfigured webhook
// that a provider keeps calling would otherwise fill the log with the same line. Later calls still get
// their request line (at info: the answer is deliberate).
import type { Logger } from "./logger.ts";

const said = new Set<string>();

export function warnOnce(logger: Logger, key: string, fields: Record<string, unknown>, message: string): void {
  if (said.has(key)) return;
  said.add(key);
  logger.warn({ ...fields, once: true }, message);
}

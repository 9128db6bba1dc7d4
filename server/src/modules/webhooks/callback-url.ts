// The rule for a job's callback URL (given on a launch or saved in the studio defaults): it is saved now and
// called later, so it is checked like every stored address. Here, below both the launch (workflows) and the
// studio defaults (projects), so neither module imports the other for it.
import { AppError } from "../../errors.ts";
import { assertStorableUrl, type Resolver } from "../net/safe-fetch.ts";

/**
 * A literal private or loopback address, a local name or a name resolving inside is refused at once, but a
 * name that does not resolve right now is accepted, since each delivery checks the URL and every hop when it
 * is made (webhooks/deliver.ts through safeFetch).
 */
export async function assertCallbackUrl(resolver: Resolver, url: string): Promise<void> {
  await assertStorableUrl(url, { resolver }).catch((error: unknown) => {
    throw renameUrlField(error, "callbackUrl");
  });
}

/** A URL check's message names `url`; a check of another field names that field instead. */
export function renameUrlField(error: unknown, field: string): unknown {
  if (error instanceof AppError && error.message.startsWith("url ")) return new AppError(error.code, `${field} ${error.message.slice(4)}`);
  return error;
}

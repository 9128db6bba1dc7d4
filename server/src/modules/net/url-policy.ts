// Which URLs an outbound request may go to (the SSRF guard). Every URL, and every redirect hop, is checked
// before anything is sent: scheme, no credentials, no local host names, and every address the host resolves
// to must be public. The connection is then pinned to the addresses that were checked (createPinnedLookup),
// so a DNS answer that changes between the check and the connect (DNS rebinding) cannot steer the request to
// an internal address.
import dns from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import { isPublicAddress } from "./address.ts";
import { SafeFetchError } from "./safe-fetch-error.ts";

/** Resolves a host name to IP addresses (v4 or v6). Injectable so tests never touch real DNS. */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) => {
  const answers = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
};

export type Protocol = "https:" | "http:";

export interface UrlPolicy {
  resolver?: Resolver;
  /** When given, only these hosts (exact, case-insensitive; an entry with a port also pins the port). */
  allowedHosts?: string[];
  /** Default: http and https. */
  protocols?: Protocol[];
}

const PRIVATE_MESSAGE = "url must not point to a private or local address";
const LOCAL_NAMES = ["localhost", "local", "internal", "localdomain", "home.arpa"];

function unsafe(message: string): SafeFetchError {
  return new SafeFetchError("unsafe_url", message);
}

/** Lower-case host without IPv6 brackets or a trailing dot. */
export function bareHost(hostname: string): string {
  let host = hostname.toLowerCase();
  if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1);
  while (host.endsWith(".")) host = host.slice(0, -1);
  return host;
}

function isLocalName(host: string): boolean {
  return LOCAL_NAMES.some((name) => host === name || host.endsWith(`.${name}`));
}

function protocolMessage(protocols: readonly Protocol[]): string {
  const names = [...new Set(protocols.map((p) => p.slice(0, -1)))].sort();
  return `url must use ${names.join(" or ")}`;
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

export async function checkUrl(input: string | URL, policy: UrlPolicy, signal?: AbortSignal): Promise<{ url: URL; addresses: string[] }> {
  let url: URL;
  try {
    url = new URL(input instanceof URL ? input.href : String(input));
  } catch {
    throw unsafe("url must be a valid absolute URL such as https://example.com/page");
  }
  const protocols: Protocol[] = policy.protocols?.length ? policy.protocols : ["https:", "http:"];
  if (!(protocols as string[]).includes(url.protocol)) throw unsafe(protocolMessage(protocols));
  if (url.username || url.password) throw unsafe("url must not contain a user name or password");

  // WHATWG parsing has already turned 2130706433, 0177.0.0.1 and 0x7f.1 into dotted IPv4.
  const host = bareHost(url.hostname);
  if (!host) throw unsafe("url must name a host");
  const literal = isIP(host) !== 0;
  if (literal ? !isPublicAddress(host) : isLocalName(host)) throw unsafe(PRIVATE_MESSAGE);

  if (policy.allowedHosts) {
    const allowed = policy.allowedHosts.map((entry) => bareHost(entry.trim())).filter(Boolean);
    const candidates = new Set([host, bareHost(url.host)]);
    if (!allowed.some((entry) => candidates.has(entry))) {
      throw unsafe(`url host ${url.hostname} is not allowed; allowed hosts: ${allowed.length ? allowed.join(", ") : "(none)"}`);
    }
  }

  if (literal) return { url, addresses: [host] };

  let answers: string[];
  try {
    answers = await abortable((policy.resolver ?? systemResolver)(host), signal);
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new SafeFetchError("unresolvable", `url could not be resolved (${host})`, `${host} could not be resolved`);
  }
  const addresses = [...new Set((Array.isArray(answers) ? answers : []).map((a) => String(a).trim()))];
  if (addresses.length === 0) {
    throw new SafeFetchError("unresolvable", `url could not be resolved (${host})`, `${host} could not be resolved`);
  }
  if (!addresses.every(isPublicAddress)) throw unsafe(PRIVATE_MESSAGE);
  return { url, addresses };
}

/**
 * Checks that `url` may be fetched: http(s) (or `protocols`), no user info, not a local host name, not a
 * non-public IP literal, on `allowedHosts` when given, and every resolved address public.
 * Throws SafeFetchError (an AppError BAD_REQUEST) naming what to fix; answers the parsed URL and the
 * addresses that were checked (connect only to those).
 */
export async function assertPublicUrl(url: string | URL, options: UrlPolicy = {}): Promise<{ url: URL; addresses: string[] }> {
  return checkUrl(url, options);
}

/**
 * The check for an address saved now and fetched later (a push endpoint, a webhook URL): everything
 * assertPublicUrl refuses is refused, except a host name that does not resolve at this moment. DNS at
 * the moment of saving is not the security boundary: every fetch checks its URL, and each redirect hop,
 * when it happens (safeFetch), so a name that later resolves to a private address is refused then.
 */
export async function assertStorableUrl(url: string | URL, options: UrlPolicy = {}): Promise<URL> {
  try {
    return (await checkUrl(url, options)).url;
  } catch (error) {
    if (error instanceof SafeFetchError && error.reason === "unresolvable") return new URL(String(url));
    throw error;
  }
}

/**
 * A `lookup` for node:net that answers only `addresses` (already validated) for `hostname`, never asking
 * DNS again. Honours `all` (used by Node's happy-eyeballs connect) and `family`.
 */
export function createPinnedLookup(hostname: string, addresses: readonly string[]): LookupFunction {
  const expected = bareHost(hostname);
  const entries = addresses.map((address) => ({ address, family: isIP(address) })).filter((entry) => entry.family !== 0);
  return (host, options, callback) => {
    const wanted = options?.family === 4 || options?.family === "IPv4" ? 4 : options?.family === 6 || options?.family === "IPv6" ? 6 : 0;
    const matching = entries.filter((entry) => wanted === 0 || entry.family === wanted);
    process.nextTick(() => {
      const first = matching[0];
      if (bareHost(host) !== expected || !first) {
        const error: NodeJS.ErrnoException = new Error(`no validated address for ${host}`);
        error.code = "ENOTFOUND";
        callback(error, "", 0);
      } else if (options?.all) {
        callback(
          null,
          matching.map((entry) => ({ address: entry.address, family: entry.family })),
        );
      } else {
        callback(null, first.address, first.family);
      }
    });
  };
}

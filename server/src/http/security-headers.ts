// What browsers are told about every answer, to limit what another site's page can do with it: what a page may load and run (CSP), that no
// other site may frame it, what the Referer may say, that no other window shares its process, which
// device features it may ask for, HTTPS only (when PUBLIC_URL is https), and that an answer made for
// one caller is never stored by a cache.
import { createHash } from "node:crypto";
import type { Config } from "../config/env.ts";
import type { MediaStorageConfig } from "../media/media-config.ts";
import { readCookie, SESSION_COOKIE } from "../modules/auth/authenticate.ts";

const csp = (directives: Record<string, string[]>) =>
  Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(" "))
    .join("; ");

/**
 * The media store's origins, for when the SPA is ever handed a file's address on it (today files are
 * served through /api/media on the SPA's own origin).
 */
export function mediaStoreOrigins(media: MediaStorageConfig | undefined): string[] {
  if (media?.kind !== "s3") return [];
  if (media.endpoint) {
    const endpoint = new URL(media.endpoint);
    return media.forcePathStyle ? [endpoint.origin] : [endpoint.origin, `${endpoint.protocol}//${media.bucket}.${endpoint.host}`];
  }
  const aws = `s3.${media.region}.amazonaws.com`;
  return media.forcePathStyle ? [`https://${aws}`] : [`https://${media.bucket}.${aws}`];
}

/** Pages share these: nothing from elsewhere runs, nothing embeds them, forms post only here. */
const PAGE_BASE = {
  "default-src": ["'self'"],
  "object-src": ["'none'"],
  "base-uri": ["'self'"],
  "form-action": ["'self'"],
  "frame-ancestors": ["'none'"],
};

/**
 * Styles may be inline (React's `style` attributes, Swagger UI's and GraphiQL's injected styles); scripts
 * never. Images are the service's own, the previews it makes (blob:, data:), and https images the SPA
 * shows from other sites on purpose: a brand's logo and a read page's pictures.
 */
function policies(config: Pick<Config, "publicUrl" | "media">) {
  const host = new URL(config.publicUrl).host;
  const store = mediaStoreOrigins(config.media);
  const sockets = [`ws://${host}`, `wss://${host}`];
  const spa = csp({
    ...PAGE_BASE,
    "script-src": ["'self'"],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:", "https:", ...store],
    "media-src": ["'self'", "blob:", ...store],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'", ...sockets, ...store],
    // The push service worker (/push-sw.js), from the service's own origin: Web Push needs one.
    "worker-src": ["'self'"],
    "frame-src": ["'none'"],
  });
  // Swagger UI: its scripts and styles are files under /api/docs/assets (rest-adapter/src/docs.ts).
  const docs = csp({
    ...PAGE_BASE,
    "script-src": ["'self'"],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
  });
  // GraphiQL (development only): one inline script, allowed by its hash; its editor's workers are blobs.
  const graphiql = (scriptHashes: string[]) =>
    csp({
      ...PAGE_BASE,
      "script-src": scriptHashes.length ? scriptHashes : ["'none'"],
      "style-src": ["'self'", "'unsafe-inline'"],
      "img-src": ["'self'", "data:", "blob:"],
      "font-src": ["'self'", "data:"],
      "connect-src": ["'self'", ...sockets],
      "worker-src": ["blob:"],
    });
  return { spa, docs, graphiql };
}

/** API answers: JSON can render nothing; files (videos, PDFs) open in a tab as the browser shows them. */
const JSON_POLICY = "default-src 'none'; frame-ancestors 'none'";
const FILE_POLICY = "frame-ancestors 'none'";

/** Every answer, whatever it is. */
const COMMON: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Cross-Origin-Opener-Policy": "same-origin",
  // The assistant records the user's voice (web/src/features/assistant/mic-button.tsx).
  "Permissions-Policy": "camera=(), microphone=(self), geolocation=(), payment=(), usb=(), display-capture=()",
};

const API_PREFIXES = ["/api/", "/trpc/"];
const isApiPath = (pathname: string) => pathname === "/graphql" || pathname === "/api" || API_PREFIXES.some((p) => pathname.startsWith(p));
const isDocsPath = (pathname: string) => pathname === "/api/docs" || pathname.startsWith("/api/docs/");

/** A request that names who is asking: the session cookie, or a bearer (session JWT or API key). */
function carriesCredentials(headers: Headers): boolean {
  return headers.has("authorization") || readCookie(headers.get("cookie"), SESSION_COOKIE) !== null;
}

/** The sha256 sources of a page's inline scripts (those without `src`), as CSP writes them. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const [, attributes, body] of html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script\s*>/gi)) {
    if (/\ssrc\s*=/i.test(attributes ?? "")) continue;
    hashes.push(
      `'sha256-${createHash("sha256")
        .update(body ?? "", "utf8")
        .digest("base64")}'`,
    );
  }
  return hashes;
}

export function createSecurityHeaders(config: Pick<Config, "publicUrl" | "media">) {
  const policy = policies(config);
  const common =
    new URL(config.publicUrl).protocol === "https:"
      ? { ...COMMON, "Strict-Transport-Security": "max-age=31536000; includeSubDomains" }
      : COMMON;
  let graphiqlCache: { html: string; policy: string } | null = null;

  return {
    /**
     * The headers for one answer. `request` is the one that arrived (before the front door dropped a
     * cross-origin page's cookie): an answer to a credentialed call is never stored, nor one that sets
     * a cookie; the SPA's files and the docs' assets keep their own caching.
     */
    headersFor(request: Request, response: Response, pathname: string): Record<string, string> {
      const headers: Record<string, string> = { ...common };
      if (!response.headers.has("content-security-policy")) {
        const type = response.headers.get("content-type") ?? "";
        headers["Content-Security-Policy"] = isDocsPath(pathname)
          ? policy.docs
          : !isApiPath(pathname)
            ? policy.spa
            : type.startsWith("application/json")
              ? JSON_POLICY
              : FILE_POLICY;
      }
      const cacheControl = response.headers.get("cache-control") ?? "";
      const personal = isApiPath(pathname) && (carriesCredentials(request.headers) || response.headers.has("set-cookie"));
      if (personal && !/\bpublic\b/.test(cacheControl)) {
        headers["Cache-Control"] = /\bno-transform\b/.test(cacheControl) ? "no-store, no-transform" : "no-store";
      }
      return headers;
    },

    /** GraphiQL's page, allowed to run its own inline script (hashed once per rendering of the page). */
    async graphiqlPage(response: Response): Promise<Response> {
      const html = await response.text();
      if (graphiqlCache?.html !== html) graphiqlCache = { html, policy: policy.graphiql(inlineScriptHashes(html)) };
      const headers = new Headers(response.headers);
      headers.set("content-security-policy", graphiqlCache.policy);
      return new Response(html, { status: response.status, statusText: response.statusText, headers });
    },
  };
}

export type SecurityHeaders = ReturnType<typeof createSecurityHeaders>;

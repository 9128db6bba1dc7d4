// Serves the built SPA (web/dist) with an index.html fallback for client-side routes.
import { existsSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { dirname, extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

export const WEB_DIST = resolve(dirname(fileURLToPath(import.meta.url)), "../../../web/dist");

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".woff2": "font/woff2",
  ".webmanifest": "application/manifest+json",
};

export async function serveSpa(pathname: string, root = WEB_DIST): Promise<Response> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // `/%ZZ` is no path a browser would ask for: a 400, not a 500.
    return new Response("Bad request: the path is not valid percent-encoding", {
      status: 400,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  }
  if (!existsSync(join(root, "index.html"))) {
    return new Response("The web app is not built yet. Run `pnpm build` (or `pnpm start`, which builds it).", {
      status: 503,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  }
  const file = normalize(join(root, decoded));
  if (file.startsWith(root + sep)) {
    const info = await stat(file).catch(() => null);
    if (info?.isFile()) {
      const immutable = pathname.startsWith("/assets/");
      return new Response(await readFile(file), {
        headers: {
          "content-type": TYPES[extname(file)] ?? "application/octet-stream",
          "cache-control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
        },
      });
    }
  }
  // Unknown paths that look like files are 404; everything else is a client route.
  if (extname(pathname)) return new Response("Not found", { status: 404 });
  return new Response(await readFile(join(root, "index.html")), {
    headers: { "content-type": TYPES[".html"] as string, "cache-control": "no-cache" },
  });
}

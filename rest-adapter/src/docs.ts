// GET /api/docs: Swagger UI from the npm package, served locally (nothing loads from the internet).
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, normalize } from "node:path";

const require = createRequire(import.meta.url);
const assetsDir = dirname(require.resolve("swagger-ui-dist/package.json"));
const ALLOWED = new Set(["swagger-ui.css", "swagger-ui-bundle.js", "swagger-ui-standalone-preset.js", "favicon-32x32.png"]);
const TYPES: Record<string, string> = { css: "text/css", js: "text/javascript", png: "image/png" };

export function docsPage(): Response {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>AdGen API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" type="image/png" href="/api/docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/assets/init.js"></script>
</body></html>`;
  return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
}

const INIT = `window.ui = SwaggerUIBundle({ url: "/api/openapi.json", dom_id: "#swagger-ui", deepLinking: true });`;

export async function docsAsset(name: string): Promise<Response | null> {
  if (name === "init.js") return new Response(INIT, { headers: { "content-type": "text/javascript" } });
  if (!ALLOWED.has(name)) return null;
  const body = await readFile(normalize(join(assetsDir, name)));
  return new Response(body, {
    headers: { "content-type": TYPES[name.split(".").pop() ?? ""] ?? "application/octet-stream", "cache-control": "public, max-age=86400" },
  });
}

// The studio's preview of a product page before launching: what the page reader would give the art
// director. A private address is the caller's mistake (400, as on launch); a page that cannot be read is
// an answer (readable: false with the reason), so the user knows before paying.
import type { PagePreview } from "@adgen/schema";
import type { RequestContext } from "../../context.ts";
import { requireUser } from "../auth/authenticate.ts";
import { readPageMeta } from "../net/page-meta.ts";
import { assertPublicUrl, SafeFetchError } from "../net/safe-fetch.ts";

export async function previewPage(ctx: RequestContext, url: string): Promise<PagePreview> {
  requireUser(ctx);
  const { resolver } = ctx.services;
  await assertPublicUrl(url, { resolver }).catch((error: unknown) => {
    if (error instanceof SafeFetchError && error.reason === "unresolvable") return;
    throw error;
  });
  const meta = await readPageMeta(url, { resolver, timeoutMs: 8_000 });
  const readable = Boolean(meta.title || meta.description || meta.images.length);
  return {
    url: meta.url,
    readable,
    title: meta.title,
    description: meta.description,
    siteName: meta.siteName,
    images: meta.images.slice(0, 6),
    colors: meta.colors,
    warnings: readable || meta.warnings.length ? meta.warnings : ["The page has no title, description or images we can use"],
  };
}

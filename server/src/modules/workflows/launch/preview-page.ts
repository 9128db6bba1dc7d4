// The studio's preview of a product page before launching: what the page reader would give the art
// director. A private address is the caller's mistake (400, as on launch); a page that cannot be read is
// an answer (readable: false with the reason), so the user knows before paying. The launch of a type made
// from the page itself (Inspiration, Brand Clone, Local Audit) reads the page the same way and refuses
// (400, nothing charged) what the preview would call unreadable: see assertPageReadable.
import type { PagePreview, WorkflowRequest } from "@adgen/schema";
import type { Services } from "../../../request-context.ts";
import { AppError } from "../../../errors.ts";
import { loadBrandForJob } from "../../brand/brand-profile.ts";
import { type PageMeta, readPageMeta } from "../../net/page-meta.ts";
import { assertPublicUrl, SafeFetchError } from "../../net/safe-fetch.ts";

/** How long the preview, and the launch's read of the page, wait for the site. */
export const PAGE_READ_TIMEOUT_MS = 8_000;

/** The types whose ad is made from the page itself: without it there is nothing to follow, clone or audit. */
const PAGE_MADE_TYPES: readonly string[] = ["clone", "brand", "local-audit"];
export const needsReadablePage = (type: string) => PAGE_MADE_TYPES.includes(type);

type ReadPage = Pick<PageMeta, "url" | "title" | "description" | "images" | "warnings">;

/** Whether the reader found anything an ad could use: a title, a description or a picture. */
const readableMeta = (meta: ReadPage) => Boolean(meta.title || meta.description || meta.images.length);

/** Why the page gave nothing, from the reader's first warning: "the site answered 404", … */
function whyUnread(meta: ReadPage): string {
  const warning = meta.warnings[0] ?? "";
  const status = warning.match(/^could not fetch \S+: HTTP (\d{3})$/)?.[1];
  if (status) return `the site answered ${status}`;
  const detail = warning.match(/^could not fetch \S+: (.+)$/)?.[1];
  if (detail) return detail;
  const type = warning.match(/is not an HTML page \(content-type ([^)]+)\)/)?.[1];
  if (type) return `it is not a web page but ${type}`;
  return "the page has no title, description or pictures";
}

/**
 * The user's words for a page a job of this type cannot be made from, or null when it can. The same
 * sentence answers the launch (400) and fails a job whose page could not be read at run time.
 */
export function unreadablePageMessage(meta: ReadPage, type: string): string | null {
  if (readableMeta(meta)) return null;
  const fix =
    type === "local-audit"
      ? "Check the address, and that the page loads for visitors without a login."
      : "Check the address, or paste the page's text as the concept.";
  return `We could not read ${meta.url} (${whyUnread(meta)}). ${fix}`;
}

/**
 * Before a page-made type is charged: reads its page (the request's url, else the brand's website) as the
 * preview does, bounded by PAGE_READ_TIMEOUT_MS, and answers 400 naming `url` when nothing could be read.
 * The launch reads the page itself rather than trusting an earlier preview: API clients launch without one.
 */
export async function assertPageReadable(services: Services, userId: string, request: WorkflowRequest): Promise<void> {
  if (!needsReadablePage(request.type)) return;
  const url = request.url ?? (await loadBrandForJob(services.prisma, userId, request.brand))?.websiteUrl;
  if (!url) return; // the launch's own check names the missing page
  const meta = await readPageMeta(url, { resolver: services.resolver, timeoutMs: PAGE_READ_TIMEOUT_MS });
  const message = unreadablePageMessage(meta, request.type);
  if (message) throw new AppError("BAD_REQUEST", message, { fields: [{ field: "url", message }] });
}

export async function previewPage(services: Services, url: string): Promise<PagePreview> {
  const { resolver } = services;
  await assertPublicUrl(url, { resolver }).catch((error: unknown) => {
    if (error instanceof SafeFetchError && error.reason === "unresolvable") return;
    throw error;
  });
  const meta = await readPageMeta(url, { resolver, timeoutMs: PAGE_READ_TIMEOUT_MS });
  const readable = readableMeta(meta);
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

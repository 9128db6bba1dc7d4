// A knowledge-base page, fetched on the queue (not inside the request that added it): through the SSRF-safe
// fetcher, which checks the address and every redirect hop when the fetch happens, and stored in the media
// store beside uploaded files. A page that cannot be read becomes the item's error, in words the user can
// act on (the knowledge page offers to try again).
import type { KnowledgeItem as KnowledgeRow } from "@adgen/prisma";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Services } from "../../request-context.ts";
import { SafeFetchError, safeFetch } from "../net/index.ts";
import { knowledgePrefix } from "./knowledge-items.ts";

const PAGE_MAX_BYTES = 5 * 1024 * 1024;
const PAGE_TYPES = new Set(["text/html", "application/xhtml+xml", "text/plain"]);

export type FetchedPage = { stored: Pick<KnowledgeRow, "fileKey" | "mimeType" | "size"> } | { error: string };

async function download(services: Services, url: string): Promise<{ body: Buffer; mime: string } | { error: string }> {
  let response: Awaited<ReturnType<typeof safeFetch>>;
  try {
    response = await safeFetch(url, {
      resolver: services.resolver,
      timeoutMs: 10_000,
      maxBytes: PAGE_MAX_BYTES,
      headers: { accept: "text/html,text/plain;q=0.9" },
    });
  } catch (error) {
    if (!(error instanceof SafeFetchError)) throw error;
    return { error: `Could not read ${url}: ${error.detail}. Check the address, and that the page loads for visitors without a login` };
  }
  if (response.status !== 200) return { error: `Could not read ${url}: the site answered ${response.status}; check the address` };
  const mime = (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (mime && !PAGE_TYPES.has(mime)) return { error: `${url} is not a web page (it is ${mime}); upload documents as files instead` };
  return { body: response.body, mime: mime || "text/html" };
}

/** Fetches the item's page and stores it; the caller records the stored file on the item. */
export async function fetchKnowledgePage(services: Services, item: KnowledgeRow): Promise<FetchedPage> {
  if (!item.sourceUrl) return { error: "The item has no address; add the page again" };
  const page = await download(services, item.sourceUrl);
  if ("error" in page) return page;
  const scratch = await mkdtemp(join(tmpdir(), "adgen-knowledge-"));
  try {
    const local = join(scratch, "page.html");
    await writeFile(local, page.body);
    const fileKey = `${knowledgePrefix(item.userId)}/${item.id}.html`;
    const { bytes } = await services.media.put(fileKey, local);
    return { stored: { fileKey, mimeType: page.mime, size: bytes } };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

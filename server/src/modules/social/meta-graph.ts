// The Meta Graph API calls publishing needs (https://developers.facebook.com/docs/graph-api): read a Page
// with its Page access token to check it, and post a video to the Page
// (https://developers.facebook.com/docs/video-api/guides/publishing: multipart `source` to
// graph-video.facebook.com/{page-id}/videos). Every call carries `appsecret_proof`, the HMAC-SHA256 of the
// token keyed with the app secret, so a leaked token alone is not enough.
import { createHmac } from "node:crypto";
import { readFile } from "node:fs/promises";
import { z } from "zod";

const VERSION = "v21.0";
const GRAPH = `https://graph.facebook.com/${VERSION}`;
const GRAPH_VIDEO = `https://graph-video.facebook.com/${VERSION}`;

/** A Graph API refusal or an unreachable Graph API; `retry` says whether trying later may help. */
export class GraphError extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
  ) {
    super(message);
    this.name = "GraphError";
  }
}

const GraphFailure = z.object({ error: z.object({ message: z.string(), code: z.number().optional() }) });

export function appsecretProof(accessToken: string, appSecret: string): string {
  return createHmac("sha256", appSecret).update(accessToken).digest("hex");
}

async function graphCall<S extends z.ZodType>(url: string, init: RequestInit, shape: S): Promise<z.output<S>> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(120_000) });
  } catch (error) {
    throw new GraphError(`Facebook could not be reached (${(error as Error).message})`, true);
  }
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    const failure = GraphFailure.safeParse(body);
    const reason = failure.success ? failure.data.error.message : `HTTP ${response.status}`;
    throw new GraphError(`Facebook refused: ${reason}`, response.status >= 500 || response.status === 429);
  }
  const parsed = shape.safeParse(body);
  if (!parsed.success) throw new GraphError("Facebook answered in an unexpected shape", true);
  return parsed.data;
}

/** The Page the token speaks for, or a GraphError (an expired or wrong token, a Page it cannot manage). */
export async function readPage(appSecret: string, pageId: string, accessToken: string): Promise<{ id: string; name: string }> {
  const query = new URLSearchParams({
    fields: "id,name",
    access_token: accessToken,
    appsecret_proof: appsecretProof(accessToken, appSecret),
  });
  const page = await graphCall(`${GRAPH}/${pageId}?${query}`, { method: "GET" }, z.object({ id: z.string(), name: z.string() }));
  if (page.id !== pageId) throw new GraphError("Facebook answered for another Page than the one given", false);
  return page;
}

/** Posts the video file to the Page with its description; answers the new video's id. */
export async function postPageVideo(
  appSecret: string,
  page: { pageId: string; accessToken: string },
  file: string,
  description: string,
): Promise<string> {
  const form = new FormData();
  form.append("access_token", page.accessToken);
  form.append("appsecret_proof", appsecretProof(page.accessToken, appSecret));
  form.append("description", description);
  form.append("source", new Blob([new Uint8Array(await readFile(file))], { type: "video/mp4" }), "ad.mp4");
  const posted = await graphCall(`${GRAPH_VIDEO}/${page.pageId}/videos`, { method: "POST", body: form }, z.object({ id: z.string() }));
  return posted.id;
}

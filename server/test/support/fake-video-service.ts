// A fake of the video services' HTTP APIs for tests (msw handlers in the documented shapes): fal's queue
// (submit, status, result, the file) and Replicate's predictions (create, get, the file, the webhook secret),
// with the picture models the same keys configure. `service` steers what the next generations do; every
// clip request is recorded with its body and headers. Clips are real H.264 files, one colour per kind.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { HttpResponse, http } from "msw";
import { locateFfmpeg } from "../../src/modules/render/index.ts";

const run = promisify(execFile);
export const REPLICATE = "https://api.replicate.com/v1";
export const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString("base64")}`;

export interface FakeRequest {
  id: string;
  model: string;
  body: Record<string, any>;
  headers: Record<string, string>;
  checks: number;
}

/** What the fake video service does with the next generations. */
export const service = { hold: false, statusOutage: false, refuse: false };
export const falRequests: FakeRequest[] = [];
export const replicateRequests: FakeRequest[] = [];
export const clips: Record<"portrait" | "square" | "presenter" | "picture", Buffer> = {} as never;
/** The picture models (generated pictures come first, then the clips animate them). */
const isPictureModel = (model: string) => model.includes("flux");
/** The clip generations sent since `from` (pictures left out). */
export const clipsSince = (list: FakeRequest[], from: number) => list.slice(from).filter((r) => !isPictureModel(r.model));

const clipFor = (request: FakeRequest) =>
  /omni|avatars/.test(request.model) ? clips.presenter : request.body.aspect_ratio === "1:1" ? clips.square : clips.portrait;

function falStatus(request: FakeRequest) {
  request.checks++;
  if (service.hold) return { status: "IN_PROGRESS" };
  if (request.checks === 1) return { status: "IN_QUEUE" };
  if (request.checks === 2) return { status: "IN_PROGRESS" };
  return service.refuse ? { status: "COMPLETED", error: "content policy violation" } : { status: "COMPLETED" };
}

export const videoServiceHandlers = [
  http.post("https://queue.fal.run/*", async ({ request }) => {
    const url = new URL(request.url);
    const id = `fal-${falRequests.length + 1}`;
    falRequests.push({
      id,
      model: url.pathname.slice(1),
      body: (await request.json()) as Record<string, any>,
      headers: Object.fromEntries(request.headers),
      checks: 0,
    });
    const base = `https://queue.fal.run/fal-ai/app/requests/${id}`;
    return HttpResponse.json({ request_id: id, status_url: `${base}/status`, response_url: base, cancel_url: `${base}/cancel` });
  }),
  http.get("https://queue.fal.run/fal-ai/app/requests/:id/status", ({ params }) => {
    const request = falRequests.find((r) => r.id === params.id);
    if (!request) return HttpResponse.json({ detail: "not found" }, { status: 404 });
    if (isPictureModel(request.model)) return HttpResponse.json({ status: "COMPLETED" });
    if (service.statusOutage) return HttpResponse.json({ detail: "Service Unavailable" }, { status: 503 });
    return HttpResponse.json(falStatus(request));
  }),
  http.get("https://queue.fal.run/fal-ai/app/requests/:id", ({ params }) => {
    const request = falRequests.find((r) => r.id === params.id);
    if (request && isPictureModel(request.model))
      return HttpResponse.json({
        images: [{ url: "https://v3.fal.media/files/picture.png", width: 640, height: 640 }],
        has_nsfw_concepts: [false],
      });
    return HttpResponse.json({ video: { url: `https://v3.fal.media/files/${params.id}.mp4`, content_type: "video/mp4" } });
  }),
  http.get(
    "https://v3.fal.media/files/picture.png",
    () => new HttpResponse(new Uint8Array(clips.picture), { headers: { "content-type": "image/png" } }),
  ),
  http.get("https://v3.fal.media/files/:file", ({ params }) => {
    const request = falRequests.find((r) => `${r.id}.mp4` === params.file);
    return request
      ? new HttpResponse(new Uint8Array(clipFor(request)), { headers: { "content-type": "video/mp4" } })
      : new HttpResponse(null, { status: 404 });
  }),
  http.post(`${REPLICATE}/models/:owner/:name/predictions`, async ({ request, params }) => {
    const id = `rep${replicateRequests.length + 1}`;
    const body = (await request.json()) as Record<string, any>;
    const model = `${params.owner}/${params.name}`;
    if (isPictureModel(model)) {
      const output = ["https://replicate.delivery/picture.png"];
      return HttpResponse.json(
        { id: `pic-${id}`, status: "succeeded", output, urls: { get: `${REPLICATE}/predictions/pic-${id}` } },
        { status: 201 },
      );
    }
    replicateRequests.push({ id, model, body, headers: Object.fromEntries(request.headers), checks: 0 });
    return HttpResponse.json({ id, status: "starting", urls: { get: `${REPLICATE}/predictions/${id}` } }, { status: 201 });
  }),
  http.get(`${REPLICATE}/predictions/:id`, ({ params }) => {
    const request = replicateRequests.find((r) => r.id === params.id);
    if (!request) return HttpResponse.json({ detail: "not found" }, { status: 404 });
    request.checks++;
    const done = !service.hold;
    return HttpResponse.json({
      id: request.id,
      status: done ? "succeeded" : "processing",
      output: done ? `https://replicate.delivery/${request.id}/out.mp4` : null,
      urls: { get: `${REPLICATE}/predictions/${request.id}` },
    });
  }),
  http.get(
    "https://replicate.delivery/picture.png",
    () => new HttpResponse(new Uint8Array(clips.picture), { headers: { "content-type": "image/png" } }),
  ),
  http.get("https://replicate.delivery/:id/out.mp4", ({ params }) => {
    const request = replicateRequests.find((r) => r.id === params.id);
    return request
      ? new HttpResponse(new Uint8Array(clipFor(request)), { headers: { "content-type": "video/mp4" } })
      : new HttpResponse(null, { status: 404 });
  }),
  http.get(`${REPLICATE}/webhooks/default/secret`, () => HttpResponse.json({ key: WEBHOOK_SECRET })),
];

async function makeClip(dir: string, colour: string, size: string): Promise<Buffer> {
  const file = join(dir, `${colour}-${size}.mp4`);
  await run(locateFfmpeg(), [
    "-v",
    "error",
    "-f",
    "lavfi",
    "-i",
    `color=c=${colour}:s=${size}:d=5:r=24`,
    "-c:v",
    "libx264",
    "-pix_fmt",
    "yuv420p",
    "-movflags",
    "+faststart",
    "-y",
    file,
  ]);
  return readFile(file);
}

/** Writes the clips and the picture the fake answers with (magenta portrait, green square, blue presenter, grey picture). */
export async function prepareVideoService(dir: string): Promise<void> {
  const picture = join(dir, "picture.png");
  await run(locateFfmpeg(), ["-v", "error", "-f", "lavfi", "-i", "color=c=0xe0e0e0:s=640x640", "-frames:v", "1", "-y", picture]);
  clips.picture = await readFile(picture);
  [clips.portrait, clips.square, clips.presenter] = await Promise.all([
    makeClip(dir, "0xff00ff", "360x640"),
    makeClip(dir, "0x00c000", "480x480"),
    makeClip(dir, "0x0000ff", "360x640"),
  ]);
}

/** Back to answering every generation normally. */
export function resetVideoService(): void {
  Object.assign(service, { hold: false, statusOutage: false, refuse: false });
}

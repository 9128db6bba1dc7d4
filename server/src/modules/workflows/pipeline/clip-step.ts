// The generated-clips step (a launch with `models.video` generated-video or talking-presenter): it submits
// each planned clip (clip-plan.ts) to the video service and records its handle (provider_tasks), then asks
// how they are doing. While any is unfinished it throws WaitForProvider: the runner lets go of the job and
// it comes back after a poll interval, or when the provider's webhook says a clip is done. Done clips are
// fetched, converted to the studio's H.264 and stored through MediaStorage, so any machine can render them.
// A refused clip fails the job (refunded); a failed one is submitted once more; transient errors are the
// runner's retries; a clip that takes longer than PROVIDER_TIMEOUT_SECONDS fails the job. It runs after
// the review, so a rejected storyboard never costs a clip.
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Prisma, ProviderTask } from "@adgen/prisma";
import { type AspectRatio, formatsFor, STEP } from "@adgen/schema";
import type { Services } from "../../../request-context.ts";
import { jobMediaKey } from "../../../media/storage.ts";
import { listBrandMedia } from "../../brand/brand-media.ts";
import { transcodeClip } from "../../brand/video-probe.ts";
import type { ClipGenerator, ClipHandle, ClipRequest } from "../../providers/clip-generator.ts";
import { checkedMp4, videoAspect } from "../../providers/clip-inputs.ts";
import { estimateProviderCost } from "../../providers/provider-cost.ts";
import type { Storyboard } from "../../render/types.ts";
import { ProviderError } from "../../providers/provider-error.ts";
import { chooseClips } from "../../providers/remote-providers.ts";
import { WaitForProvider } from "../jobs/provider-wait.ts";
import { type ClipShape, PRESENTER_SLOT, type PlannedClip, planClips } from "./clip-plan.ts";
import { PermanentJobError } from "./job-errors.ts";
import type { ArtDirectionOutput, PipelineStep, StepContext, VoiceOutput } from "./step-types.ts";

export type ClipModel = "generated-video" | "talking-presenter";

export interface ClipsOutput {
  model: ClipModel;
  /** Each scene's clip per frame shape (generated-video). */
  scenes: { sceneId: string; aspect: ClipShape; key: string; durationSec: number; width: number; height: number }[];
  /** The talking presenter's clip (talking-presenter). */
  presenterKey: string | null;
  /** Seconds of clip generated (what the provider bills) and what they cost, in US cents. */
  seconds: number;
  costCents: number;
}

/** Where the provider calls back: only an instance with a public address can be called. */
export function clipWebhookUrl(publicUrl: string, provider: string): string | undefined {
  const host = new URL(publicUrl).hostname;
  if (host === "localhost" || host.endsWith(".localhost") || /^(127\.|0\.|10\.|192\.168\.|\[?::1\]?$)/.test(host)) return undefined;
  return `${publicUrl}/api/webhook/clips/${provider}`;
}

/** The presenter photo a talking presenter starts from: the newest presenter photo of the user's library. */
async function presenterPhoto(services: Services, userId: string): Promise<string | undefined> {
  const library = await listBrandMedia(services.prisma, userId);
  return library.filter((item) => item.role === "presenter" && item.kind === "image").at(-1)?.key;
}

async function mediaBytes(services: Services, key: string, mime: string): Promise<{ bytes: Buffer; mime: string }> {
  const { readFile } = await import("node:fs/promises");
  return { bytes: await readFile(await services.media.localFile(key)), mime };
}

const mimeOf = (key: string) => (/\.png$/i.test(key) ? "image/png" : /\.webp$/i.test(key) ? "image/webp" : "image/jpeg");

async function submitClip(ctx: StepContext, generator: ClipGenerator, clip: PlannedClip, voice: VoiceOutput | undefined) {
  const { services, job, request, signal } = ctx;
  const clipRequest: ClipRequest = {
    kind: clip.kind,
    prompt: clip.prompt,
    aspect: clip.aspect,
    durationSec: clip.durationSec,
    tier: request.quality ?? "standard",
    signal,
    ...(clip.imageKey ? { image: await mediaBytes(services, clip.imageKey, mimeOf(clip.imageKey)) } : {}),
    ...(clip.kind === "talking-presenter" && voice?.wavKey ? { audio: await mediaBytes(services, voice.wavKey, "audio/wav") } : {}),
    ...(clip.avatarId ? { avatarId: clip.avatarId } : {}),
  };
  const webhookUrl = clipWebhookUrl(services.config.publicUrl, generator.provider);
  if (webhookUrl) clipRequest.webhookUrl = webhookUrl;
  const handle = await generator.submit(clipRequest);
  await services.prisma.providerTask.upsert({
    where: { jobId_slot: { jobId: job.id, slot: clip.slot } },
    create: {
      jobId: job.id,
      slot: clip.slot,
      kind: clip.kind,
      provider: handle.provider,
      externalId: handle.id,
      handle: handle as unknown as Prisma.InputJsonValue,
      seconds: clip.durationSec,
    },
    update: {
      externalId: handle.id,
      handle: handle as unknown as Prisma.InputJsonValue,
      status: "submitted",
      submits: { increment: 1 },
      submittedAt: new Date(),
      error: null,
    },
  });
}

/** Fetches a finished clip, converts it to the studio's H.264 and stores it among the job's media. */
async function storeClip(ctx: StepContext, generator: ClipGenerator, task: ProviderTask): Promise<void> {
  const { services, job, signal } = ctx;
  const result = await generator.fetchResult(task.handle as unknown as ClipHandle, signal);
  const dir = await services.media.scratchDir(`${job.id}/clips`);
  const name = task.slot.replace(/[^a-z0-9]+/gi, "-");
  const raw = join(dir, `${name}-raw.mp4`);
  await writeFile(raw, checkedMp4(result.bytes));
  const file = join(dir, `clip-${name}.mp4`);
  const header = await transcodeClip(raw, file, join(dir, `clip-${name}.jpg`)).catch((error: Error) => {
    throw new ProviderError(`The video service answered a clip that cannot be played (${error.message})`, "malformed");
  });
  const key = jobMediaKey(job.id, `clip-${name}.mp4`);
  await services.media.put(key, file);
  await rm(raw, { force: true });
  const handle = task.handle as unknown as ClipHandle & { width?: number; height?: number };
  await services.prisma.providerTask.update({
    where: { id: task.id },
    data: {
      status: "done",
      resultKey: key,
      durationSec: header.durationSec,
      handle: { ...handle, width: header.width, height: header.height } as unknown as Prisma.InputJsonValue,
      finishedAt: new Date(),
    },
  });
}

/** One look at every unfinished clip: stores the finished, resubmits a failed one once; the pending count. */
async function advance(ctx: StepContext, generator: ClipGenerator, plan: PlannedClip[], voice: VoiceOutput | undefined): Promise<number> {
  const { services, job, signal } = ctx;
  const tasks = await services.prisma.providerTask.findMany({ where: { jobId: job.id, status: { not: "done" } } });
  let pending = 0;
  for (const task of tasks) {
    const status = await generator.check(task.handle as unknown as ClipHandle, signal);
    if (status.state === "done") {
      await storeClip(ctx, generator, task);
      continue;
    }
    if (status.state === "refused") throw new PermanentJobError(`A clip of this ad was refused: ${status.message}`);
    if (status.state === "failed") {
      const clip = plan.find((p) => p.slot === task.slot);
      if (task.submits >= 2 || !clip) throw new PermanentJobError(`A clip of this ad could not be made: ${status.message}`);
      await submitClip(ctx, generator, clip, voice);
      pending++;
      continue;
    }
    const waited = (Date.now() - task.submittedAt.getTime()) / 1000;
    if (waited > services.config.providers.timeoutSeconds) {
      throw new PermanentJobError(`The video service took longer than ${Math.round(waited / 60)} minutes to make a clip of this ad`);
    }
    pending++;
  }
  return pending;
}

export const clipStep: PipelineStep = {
  name: STEP.clips,
  weight: 40,
  async run(ctx) {
    const { services, job, request, outputs, progress } = ctx;
    const direction = outputs.get(STEP.artDirection) as ArtDirectionOutput;
    const voice = outputs.get(STEP.voice) as VoiceOutput | undefined;
    const model = request.models?.video as ClipModel;
    const presenterPhotoKey = model === "talking-presenter" ? await presenterPhoto(services, job.userId) : undefined;
    const needsStock = model === "talking-presenter" && !presenterPhotoKey;
    const generator = chooseClips(services.providers, model, direction.generation?.preference ?? "auto", { stockAvatars: needsStock });
    if (!generator) throw new PermanentJobError("Generated video is not available on this instance now: nothing was made");
    const storyboard = voice?.storyboard ?? direction.storyboard;
    const stockAvatar = !presenterPhotoKey && generator.stockAvatars ? services.config.providers.stockAvatar : null;
    if (model === "talking-presenter" && !presenterPhotoKey && !stockAvatar) {
      throw new PermanentJobError("A talking presenter needs a presenter photo in your media library (with the person's consent)");
    }
    const plan = planClips({
      model,
      type: request.type,
      quality: request.quality ?? "standard",
      formats: formatsFor(request),
      storyboard,
      ...(direction.shotList ? { shotList: direction.shotList } : {}),
      ...(direction.briefReading ? { briefReading: direction.briefReading } : {}),
      ...(request.prompts?.clip ? { launchPrompt: request.prompts.clip } : {}),
      ...(voice ? { voiceSeconds: Math.min(voice.durationSec, services.config.maxAdSeconds) } : {}),
      ...(presenterPhotoKey ? { presenterPhotoKey } : {}),
      ...(stockAvatar ? { stockAvatar } : {}),
    });
    // Submit what is not submitted yet (a retry after a failed submit goes on where it stopped).
    const known = new Set(
      (await services.prisma.providerTask.findMany({ where: { jobId: job.id }, select: { slot: true } })).map((t) => t.slot),
    );
    for (const clip of plan) if (!known.has(clip.slot)) await submitClip(ctx, generator, clip, voice);
    const pending = await advance(ctx, generator, plan, voice).catch((error: unknown) => {
      if (error instanceof ProviderError && !error.transient)
        throw new PermanentJobError(`A clip of this ad could not be made: ${error.message}`);
      throw error;
    });
    progress((plan.length - pending) / Math.max(1, plan.length));
    if (pending > 0) throw new WaitForProvider(services.config.providers.pollSeconds, pending);
    const output = await clipsOutput(services, job.id, model, request.quality ?? "standard");
    // The job's provider cost becomes what the clips really took (the launch recorded an estimate).
    const others = estimateProviderCost(
      {
        ...request,
        quality: request.quality ?? "standard",
        models: { ...direction.generation?.models, video: "studio-motion" },
        maxAdSeconds: services.config.maxAdSeconds,
      },
      services.config.providerCosts,
    );
    await services.prisma.job.update({
      where: { id: job.id },
      data: { providerCostCents: Math.round((others.costCents + output.costCents) * 100) / 100 },
    });
    return output;
  },
};

/** The storyboard a render of `format` renders: each scene with its generated clip in the format's frame shape. */
export function withGeneratedClips(storyboard: Storyboard, outputs: Map<string, unknown>, format: AspectRatio): Storyboard {
  const clips = outputs.get(STEP.clips) as ClipsOutput | undefined;
  if (!clips?.scenes.length) return storyboard;
  const shape = videoAspect(format);
  const byScene = new Map(clips.scenes.filter((clip) => clip.aspect === shape).map((clip) => [clip.sceneId, clip]));
  const scenes = storyboard.scenes.map((scene) => {
    const clip = byScene.get(scene.id);
    if (!clip) return scene;
    const size = clip.width && clip.height ? { imageSize: { width: clip.width, height: clip.height } } : {};
    return { ...scene, videoKey: clip.key, videoStartSec: 0, ...size };
  });
  return { ...storyboard, scenes };
}

/** The talking presenter's clip, when the job made one: it replaces the presenter's photo in the slot. */
export function generatedPresenterKey(outputs: Map<string, unknown>): string | null {
  return (outputs.get(STEP.clips) as ClipsOutput | undefined)?.presenterKey ?? null;
}

async function clipsOutput(services: Services, jobId: string, model: ClipModel, quality: "standard" | "premium"): Promise<ClipsOutput> {
  const tasks = await services.prisma.providerTask.findMany({ where: { jobId, status: "done" } });
  const rates = services.config.providerCosts;
  const perSecond = model === "talking-presenter" ? rates.presenterCentsPerSecond : rates.videoCentsPerSecond[quality];
  // What the provider billed: every submit of every clip.
  const seconds = tasks.reduce((sum, t) => sum + t.seconds * t.submits, 0);
  const scenes: ClipsOutput["scenes"] = [];
  for (const task of tasks) {
    // `scene:<sceneId>:<w:h>` (the shape has a colon of its own).
    const slot = /^scene:(.+):(\d+:\d+)$/.exec(task.slot);
    const [, sceneId, aspect] = slot ?? [];
    if (!sceneId || !aspect || !task.resultKey) continue;
    const handle = task.handle as { width?: number; height?: number };
    scenes.push({
      sceneId,
      aspect: aspect as ClipShape,
      key: task.resultKey,
      durationSec: task.durationSec ?? 0,
      width: handle.width ?? 0,
      height: handle.height ?? 0,
    });
  }
  const presenterKey = tasks.find((t) => t.slot === PRESENTER_SLOT)?.resultKey ?? null;
  return { model, scenes, presenterKey, seconds, costCents: Math.round(seconds * perSecond * 100) / 100 };
}

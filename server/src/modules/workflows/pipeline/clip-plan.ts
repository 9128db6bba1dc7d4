// Which clips a job asks the video service for, decided from the approved (and, for narrated types, voiced)
// storyboard before anything is submitted. Pure: no I/O.
//
// - `generated-video`: one clip per scene and per frame shape the job's formats need (a 4:5 feed ad is cut
//   from the square clip): the scene's picture animated (image-to-video), or, for a scene without one, a
//   clip made from its direction alone (text-to-video b-roll). The motion prompt is the launch's clip prompt
//   (prompts.clip) with the scene's moment when there is one, else the scene's shot from
//   the shot list when there is one (it carries the brief's direction notes), else the prompt builder's
//   video prompt from the scene's words, its camera move and the brief's direction notes.
// - `talking-presenter`: one clip of the user's presenter (their photo, consent recorded with the upload)
//   speaking the whole voice-over, shown in the presenter slot of every format.
import type { AspectRatio, BriefReading, QualityTier, Shot } from "@adgen/schema";
import { buildPrompt } from "../../prompt-builder/build-prompt.ts";
import type { ClipKind } from "../../providers/clip-generator.ts";
import { fiveOrTen, videoAspect } from "../../providers/clip-inputs.ts";
import { MOST_SCENES } from "../../providers/provider-cost.ts";
import type { Storyboard } from "../../render/types.ts";
import { MOVEMENT_OF_MOTION } from "./shot-list.ts";

export type ClipShape = ReturnType<typeof videoAspect>;

export interface PlannedClip {
  /** `scene:<sceneId>:<shape>` or `presenter`: the clip's place in the job (unique per job). */
  slot: string;
  kind: ClipKind;
  prompt: string;
  aspect: ClipShape;
  /** Seconds asked for: what the provider makes and bills. */
  durationSec: number;
  sceneId?: string;
  /** The picture to animate (a media key), for image-to-video; the presenter's photo for a talking presenter. */
  imageKey?: string;
  /** A talking presenter without a photo: the video service's stock presenter. */
  avatarId?: string;
}

export interface ClipPlanInput {
  model: "generated-video" | "talking-presenter";
  type: string;
  quality: QualityTier;
  formats: readonly AspectRatio[];
  storyboard: Storyboard;
  shotList?: readonly Shot[];
  briefReading?: BriefReading;
  /** The launch's clip prompt (prompts.clip): every scene's clip follows it, with the scene's moment. */
  launchPrompt?: string;
  /** The voice-over's length (talking presenter). */
  voiceSeconds?: number;
  presenterPhotoKey?: string;
  /** The stock presenter when there is no photo (PRESENTER_STOCK_AVATAR). */
  stockAvatar?: string;
}

/** The slot of a scene's clip in one frame shape. */
export const sceneSlot = (sceneId: string, shape: ClipShape) => `scene:${sceneId}:${shape}`;
export const PRESENTER_SLOT = "presenter";

/** A clip model makes at most this many seconds of one talking presenter. */
export const MAX_PRESENTER_SECONDS = 60;

const NO_LETTERING = "No text, captions, logos or lettering in the video.";

/** An e-mail address never reaches a provider, even when the brief quotes one. */
export const withoutEmails = (text: string) => text.replace(/[^\s@<>()"',;:]+@[^\s@<>()"',;:]+\.[a-z]{2,}/gi, "[address]");

/** The brief's direction sentences (camera, setting, action): what every clip's motion prompt carries. */
function directionNotes(reading: BriefReading | undefined): string {
  return (reading ?? [])
    .filter((entry) => entry.kind === "direction")
    .map((entry) => entry.sentence.trim().replace(/[.!]+$/, ""))
    .join(". ");
}

/** The motion prompt of one scene's clip. */
export function sceneMotionPrompt(input: ClipPlanInput, index: number): string {
  const scene = input.storyboard.scenes[index]!;
  if (input.launchPrompt) {
    return withoutEmails(`${input.launchPrompt.replace(/[.\s]+$/, "")}. The moment: ${scene.headline}. ${NO_LETTERING}`);
  }
  const shot = input.shotList?.find((s) => s.sceneId === scene.id);
  if (shot) return withoutEmails(`${shot.prompt}. ${NO_LETTERING}`);
  const ugc = input.type === "influencer" || input.type === "avatar";
  const notes = directionNotes(input.briefReading);
  const context = [scene.body, notes].filter(Boolean).join(". ");
  const built = buildPrompt(ugc ? "video-ugc" : "video-cinematic", {
    subject: `${input.storyboard.brand.name}: ${scene.headline}`,
    ...(context ? { context } : {}),
    camera: MOVEMENT_OF_MOTION[scene.motion ?? "push-in"],
    quality: input.quality === "premium" ? "cinematic, 1080p, smooth motion" : "smooth motion, sharp focus",
  });
  return withoutEmails(`${built.positive}. ${NO_LETTERING}`);
}

/** The frame shapes the job's formats need, in the formats' order, each once. */
export function clipShapes(formats: readonly AspectRatio[]): ClipShape[] {
  return [...new Set(formats.map(videoAspect))];
}

export function planClips(input: ClipPlanInput): PlannedClip[] {
  if (input.model === "talking-presenter") {
    const seconds = Math.min(MAX_PRESENTER_SECONDS, Math.max(1, Math.ceil(input.voiceSeconds ?? 0)));
    const notes = directionNotes(input.briefReading);
    const prompt = withoutEmails(
      [`The person speaks to camera about ${input.storyboard.brand.name}, natural gestures, steady framing`, notes]
        .filter(Boolean)
        .join(". "),
    );
    return [
      {
        slot: PRESENTER_SLOT,
        kind: "talking-presenter",
        prompt,
        aspect: videoAspect(input.formats[0] ?? "9:16"),
        durationSec: seconds,
        ...(input.presenterPhotoKey ? { imageKey: input.presenterPhotoKey } : input.stockAvatar ? { avatarId: input.stockAvatar } : {}),
      },
    ];
  }
  const clips: PlannedClip[] = [];
  for (const shape of clipShapes(input.formats)) {
    // Never more scenes than the launch's cost estimate counted.
    for (const [i, scene] of input.storyboard.scenes.slice(0, MOST_SCENES).entries()) {
      // The user's own footage of the product plays as it is: it is better than any generated clip, and free.
      if (scene.videoKey) continue;
      const picture = scene.imageKey;
      clips.push({
        slot: sceneSlot(scene.id, shape),
        kind: picture ? "image-to-video" : "text-to-video",
        prompt: sceneMotionPrompt(input, i),
        aspect: shape,
        // The shortest clip the models make; a longer scene loops it (the estimate counts 5 s a scene).
        durationSec: fiveOrTen(0),
        sceneId: scene.id,
        ...(picture ? { imageKey: picture } : {}),
      });
    }
  }
  return clips;
}

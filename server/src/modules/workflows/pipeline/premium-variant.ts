// Premium video jobs buy one more cut per format: the same ad, opening differently, so a buyer can test two
// openings against each other. `planAlternateCut` decides which true line it opens on and which picture and
// camera move its first scene gets; `renderCut` renders and stores a cut (the render step calls it for both).
// Nothing here writes a new line: a cut with nothing true to open on is not made, and the result says why.
import type { Services } from "../../../request-context.ts";
import { jobMediaKey } from "../../../media/storage.ts";
import type { RenderRequest, Scene, SceneMotion, Storyboard, TextMotion } from "../../render/types.ts";
import { hookVariants } from "./types/factory.ts";

/** The alternate cut's `variant` in a format's `variants` and in the result's assets (the main cut has none). */
export const ALTERNATE_CUT_ID = "B";

export interface AlternateCut {
  /** The line the cut opens on (for a narrated ad, the unchanged opening line). */
  hook: string;
  /**
   * Where the hook came from: another scene's headline (the ad's next hook), a body line (its strongest
   * benefit), or "opening" (narrated ads: the same words over a different opening picture).
   */
  hookSource: "headline" | "body" | "opening";
  storyboard: Storyboard;
}

export type AlternateCutPlan = { cut: AlternateCut } | { warning: string };

/** The camera move that reads as a different shot of the same picture. */
const OTHER_MOTION: Record<SceneMotion, SceneMotion> = {
  "push-in": "pull-out",
  "pull-out": "push-in",
  "pan-left": "pan-right",
  "pan-right": "pan-left",
  "pan-up": "pan-down",
  "pan-down": "pan-up",
  static: "push-in",
};

/** The way the type arrives that reads differently in the first second. */
const OTHER_TEXT_MOTION: Record<TextMotion, TextMotion> = { rise: "slide", slide: "rise", fade: "rise", none: "fade" };

/** A scene's picture or clip, with what layout knows about it: moved between scenes as one. */
const PICTURE_FIELDS = ["imagePath", "imageKey", "imageSize", "subject", "videoPath", "videoKey", "videoStartSec"] as const;
type Picture = Pick<Scene, (typeof PICTURE_FIELDS)[number]>;

const pictureOf = (scene: Scene): Picture =>
  Object.fromEntries(PICTURE_FIELDS.filter((f) => scene[f] !== undefined).map((f) => [f, scene[f]])) as Picture;
const withoutPicture = (scene: Scene): Scene => {
  const rest: Scene = { ...scene };
  for (const f of PICTURE_FIELDS) delete rest[f];
  return rest;
};
const pictureId = (scene: Scene) => scene.videoKey ?? scene.videoPath ?? scene.imageKey ?? scene.imagePath ?? null;

/**
 * The opening scene shows another scene's picture (preferring `preferred`, the scene the hook came from),
 * and that scene shows the opening's, so every picture is still seen once. Without a picture to trade, the
 * opening trades its colours with the first scene of another colour instead (an ad of plain colour scenes).
 * The opening's camera move and the arrival of its type change too. `pictured` says whether the opening
 * shows a picture that moves differently (some layouts, such as the presenter's, draw every scene in the
 * brand's colours, so a colour trade alone may not show).
 */
function reopen(storyboard: Storyboard, preferred: number | null): { storyboard: Storyboard; pictured: boolean } {
  const scenes = storyboard.scenes.map((scene) => ({ ...scene }));
  const opening = scenes[0]!;
  const own = pictureId(opening);
  const order = [...(preferred !== null && preferred > 0 ? [preferred] : []), ...scenes.keys()].filter((i) => i > 0);
  const donor = order.find((i) => {
    const id = pictureId(scenes[i]!);
    return id !== null && id !== own;
  });
  const colourDonor = order.find((i) => scenes[i]!.background.toLowerCase() !== opening.background.toLowerCase());
  if (donor !== undefined) {
    const theirs = pictureOf(scenes[donor]!);
    scenes[donor] = { ...withoutPicture(scenes[donor]!), ...pictureOf(opening) };
    // A scene left without a picture keeps its colour, and no camera move it could not show.
    if (own === null) delete scenes[donor]!.motion;
    scenes[0] = { ...withoutPicture(opening), ...theirs, motion: OTHER_MOTION[opening.motion ?? "static"] };
  } else if (own !== null) {
    scenes[0] = { ...opening, motion: OTHER_MOTION[opening.motion ?? "static"] };
  } else if (colourDonor !== undefined) {
    const other = scenes[colourDonor]!;
    scenes[colourDonor] = { ...other, background: opening.background, accent: opening.accent };
    scenes[0] = { ...opening, background: other.background, accent: other.accent };
  }
  scenes[0] = { ...scenes[0]!, textMotion: OTHER_TEXT_MOTION[opening.textMotion ?? "none"] };
  return { storyboard: { ...storyboard, scenes }, pictured: donor !== undefined || own !== null };
}

/**
 * The alternate cut of `storyboard`. An unnarrated ad opens on its next true hook (a middle scene's headline,
 * which trades places with the opening), else on its strongest benefit (a body line), chosen as the factory
 * chooses its hook variants; never on a line written for the occasion.
 *
 * A narrated ad (avatar, influencer) keeps every word: its voice-over is already spoken and timed to the
 * scenes, and a new opening line on screen would contradict what the presenter says over it. Its cut opens
 * on a different picture, or its own picture with a different camera move; without any picture it is set in
 * another style, so the two cuts still look different.
 */
export function planAlternateCut(storyboard: Storyboard, narrated: boolean, persona = false): AlternateCutPlan {
  if (storyboard.scenes.length === 0) return { warning: "No alternate cut: the ad has no scenes." };
  if (narrated) {
    const { storyboard: reopened, pictured } = reopen(storyboard, null);
    // Without a picture to open on differently, the cut is set in another style: a dark, letterboxed page
    // (or a light one for an ad that is already dark) under the same words and voice.
    // A presenter's frames hide the pictures, so a traded picture alone may not show: the cut is set in another
    // style whenever a person fronts it too.
    const restyle = !pictured || persona;
    const restyled: Storyboard = restyle ? { ...reopened, style: storyboard.style === "cinematic" ? "editorial" : "cinematic" } : reopened;
    return { cut: { hook: storyboard.scenes[0]!.headline, hookSource: "opening", storyboard: restyled } };
  }
  const second = hookVariants(storyboard, 2)[1];
  if (!second || second.from === null) {
    return {
      warning:
        "No alternate cut: the ad has no second line to open on (premium still renders at 1080p, 60 fps). Add a benefit or a hook to the brief for one.",
    };
  }
  const { storyboard: reopened } = reopen(second.storyboard, second.from.scene);
  return { cut: { hook: second.hook, hookSource: second.from.part, storyboard: reopened } };
}

/** A rendered and stored cut: its MP4 and thumbnail keys, its size in bytes and its render's measures. */
export interface StoredCut {
  key: string;
  thumbnailKey: string;
  bytes: number;
  width: number;
  height: number;
  durationSec: number;
}

/** Renders one cut (`<fileStem>.mp4` and `.jpg` in `request.outputDir`) and stores both under the job's media. */
export async function renderCut(services: Services, jobId: string, request: RenderRequest): Promise<StoredCut> {
  // Naming the job lets its scene segments be spread over the workers.
  const result = await services.renderer.render({ ...request, segmentOwner: { jobId } });
  const key = jobMediaKey(jobId, `${request.fileStem}.mp4`);
  const thumbnailKey = jobMediaKey(jobId, `${request.fileStem}.jpg`);
  await services.media.put(thumbnailKey, result.thumbnailPath);
  const stored = await services.media.put(key, result.videoPath);
  return { key, thumbnailKey, bytes: stored.bytes, width: result.width, height: result.height, durationSec: result.durationSec };
}

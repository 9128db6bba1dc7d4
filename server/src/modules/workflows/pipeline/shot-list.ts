// cinematic (Director): the shot list. Each scene gets a camera (shot size and angle), a lens, lighting
// and a camera move, chosen from what the scene does in the story (its beat role), the ad preset (a
// cinematography style) and the quality tier; then its provider prompt is built with the prompt
// builder, as a remote video model would receive it. The move is also set on the storyboard's scene, so
// the built-in studio renders it (a push-in, a pull-out or a pan over the scene's picture).
import type { QualityTier, Shot, WorkflowRequest } from "@adgen/schema";
import { buildPrompt } from "../../prompt-builder/build-prompt.ts";
import { CAMERA, STYLES } from "../../prompt-builder/vocabulary.ts";
import type { SceneMotion, Storyboard } from "../../render/types.ts";

/** What a scene does in the story, which decides how it is shot. */
type Purpose = "open" | "tension" | "story" | "product" | "close";

const PURPOSE_OF_ROLE: Record<string, Purpose> = {
  attention: "open",
  hero: "open",
  value: "open",
  hook: "open",
  problem: "tension",
  agitate: "tension",
  need: "tension",
  interest: "story",
  guide: "story",
  plan: "story",
  proof: "story",
  authority: "story",
  difference: "story",
  timeline: "story",
  "social-proof": "story",
  benefit: "story",
  desire: "product",
  solution: "product",
  success: "product",
  scarcity: "product",
  budget: "product",
  offer: "product",
  action: "close",
  "call-to-action": "close",
};

interface Coverage {
  /** Ids from the prompt builder's camera specs. */
  shotSize: string;
  angle: string;
  lens: string;
  movement: string;
  motion: SceneMotion;
  /** Added to the style's lighting for this kind of scene. */
  lightingAccent: string | null;
}

// Establish wide and push in; tighten and look down on the problem; follow the story at eye level; go
// close on the product; pull back to reveal the brand at the end.
const COVERAGE: Record<Purpose, Coverage> = {
  open: { shotSize: "wide shot", angle: "low angle", lens: "24mm", movement: "slow dolly in", motion: "push-in", lightingAccent: null },
  tension: {
    shotSize: "medium close-up",
    angle: "high angle",
    lens: "50mm",
    movement: "pan",
    motion: "pan-left",
    lightingAccent: "low-key, hard shadows",
  },
  story: {
    shotSize: "medium shot",
    angle: "eye level",
    lens: "35mm",
    movement: "tracking shot",
    motion: "pan-right",
    lightingAccent: null,
  },
  product: {
    shotSize: "close-up",
    angle: "eye level",
    lens: "100mm",
    movement: "slow dolly in",
    motion: "push-in",
    lightingAccent: "rim light on the product",
  },
  close: {
    shotSize: "medium close-up",
    angle: "eye level",
    lens: "50mm",
    movement: "dolly out",
    motion: "pull-out",
    lightingAccent: "bright, even key light",
  },
};

/** The cinematography style each ad preset is shot in. */
const STYLE_OF_PRESET: Record<string, keyof typeof STYLES> = {
  bold: "teal-orange",
  minimal: "minimalist",
  luxury: "cinematic",
  playful: "golden-hour",
  documentary: "documentary",
};
const DEFAULT_STYLE = "cinematic";

/** Premium opens the aperture (shallower depth of field) and asks for a finer finish. */
const APERTURE: Record<QualityTier, string> = { standard: "f/2.8", premium: "f/1.4" };
const PROMPT_QUALITY: Record<QualityTier, string> = {
  standard: "cinematic, smooth motion, sharp focus",
  premium: "cinematic, smooth motion, 4k, shallow depth of field, professional color grading, film grain",
};

const MOTION_LABEL: Record<SceneMotion, string> = {
  "push-in": "Slow push-in",
  "pull-out": "Slow pull-out",
  "pan-left": "Pan left",
  "pan-right": "Pan right",
  "pan-up": "Tilt up",
  "pan-down": "Tilt down",
  static: "Locked-off",
};
/** The other way, so two scenes in a row never make the same move. */
const COUNTER_MOTION: Record<SceneMotion, SceneMotion> = {
  "push-in": "pan-right",
  "pull-out": "push-in",
  "pan-left": "pan-right",
  "pan-right": "pan-left",
  "pan-up": "pan-down",
  "pan-down": "pan-up",
  static: "push-in",
};
export const MOVEMENT_OF_MOTION: Record<SceneMotion, string> = {
  "push-in": "slow dolly in",
  "pull-out": "dolly out",
  "pan-left": "pan",
  "pan-right": "pan",
  "pan-up": "tilt",
  "pan-down": "tilt",
  static: "static",
};

const label = (list: readonly { id: string; label: string }[], id: string) => list.find((item) => item.id === id)?.label ?? id;
const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The beat role a scene was written for: directAd names scenes `scene-<n>-<role>`. */
function purposeOf(sceneId: string, index: number, count: number): Purpose {
  const role = sceneId.match(/^scene-\d+-(.+)$/)?.[1] ?? "";
  const known = PURPOSE_OF_ROLE[role];
  if (known) return known;
  if (index === 0) return "open";
  if (index === count - 1) return "close";
  return "story";
}

// A camera move the brief asks for in words ("Slow push-ins on the condensation", "pull back to reveal").
const ASKED_MOTION: [RegExp, SceneMotion][] = [
  [/push[- ]?ins?|dolly in|zoom(s|ing)? in|move(s)? in|close in/i, "push-in"],
  [/pull[- ]?(out|back)s?|dolly out|zoom(s|ing)? out|reveal/i, "pull-out"],
  [/pan(s|ning)? (to the )?left/i, "pan-left"],
  [/pan(s|ning)?\b|track(s|ing)?\b/i, "pan-right"],
  [/tilt(s|ing)? up|crane up|(view|shot) from the top|from above/i, "pan-up"],
  [/tilt(s|ing)? down/i, "pan-down"],
  [/locked[- ]off|static shot|still camera|tripod/i, "static"],
];

/** The camera moves the brief's direction notes ask for, in the order they are written. */
export function motionsAskedFor(notes: readonly string[]): SceneMotion[] {
  return notes.flatMap((note) =>
    note
      .split(/,\s*then\s+|\bthen\b|,\s+/i)
      .map((part) => ASKED_MOTION.find(([pattern]) => pattern.test(part))?.[1])
      .filter((motion): motion is SceneMotion => !!motion),
  );
}

export interface ShotListing {
  shots: Shot[];
  /** The storyboard with each scene's `motion` set to its shot's move. */
  storyboard: Storyboard;
}

/** The shot list of a directed storyboard, and the storyboard carrying each shot's camera move. */
export function planShots(
  storyboard: Storyboard,
  request: Pick<WorkflowRequest, "adPreset" | "quality">,
  /** The brief's direction sentences: the moves they ask for come first, and every prompt carries them. */
  direction: readonly string[] = [],
): ShotListing {
  const asked = motionsAskedFor(direction);
  const notes = direction.join(" ");
  const style = STYLES[STYLE_OF_PRESET[request.adPreset ?? ""] ?? DEFAULT_STYLE];
  const quality = request.quality ?? "standard";
  const count = storyboard.scenes.length;
  const shots: Shot[] = [];
  let previous: SceneMotion | null = null;
  const scenes = storyboard.scenes.map((scene, i) => {
    const coverage = COVERAGE[purposeOf(scene.id, i, count)];
    const planned = asked[i] ?? coverage.motion;
    const motion = !asked[i] && previous === planned ? COUNTER_MOTION[planned] : planned;
    previous = motion;
    const lens = CAMERA.lenses.find((l) => l.id === coverage.lens)!;
    const camera = `${label(CAMERA.shotSizes, coverage.shotSize)}, ${label(CAMERA.angles, coverage.angle).toLowerCase()}`;
    const lighting = capitalise(coverage.lightingAccent ? `${style.lighting}; ${coverage.lightingAccent}` : style.lighting);
    const movement = motion === coverage.motion ? coverage.movement : MOVEMENT_OF_MOTION[motion];
    const context = [scene.body, notes].filter(Boolean).join(". ");
    const built = buildPrompt("video-cinematic", {
      subject: `${storyboard.brand.name}: ${scene.headline}`,
      ...(context ? { context } : {}),
      style: style.id,
      lighting,
      camera: `${lens.id}, ${coverage.shotSize}, ${coverage.angle}, ${movement}`,
      quality: PROMPT_QUALITY[quality],
    });
    shots.push({
      sceneId: scene.id,
      camera,
      lens: `${lens.focalLengthMm}mm ${APERTURE[quality]} (${lens.label.replace(/^\d+mm\s*/, "") || "standard"})`,
      lighting,
      motion: MOTION_LABEL[motion],
      prompt: built.positive,
    });
    return { ...scene, motion };
  });
  return { shots, storyboard: { ...storyboard, scenes } };
}

/** The shots of the scenes a storyboard still has (a review may drop or reorder scenes), in its order. */
export function shotsFor(storyboard: Storyboard, shots: readonly Shot[]): Shot[] {
  const byId = new Map(shots.map((shot) => [shot.sceneId, shot]));
  return storyboard.scenes.map((scene) => byId.get(scene.id)).filter((shot): shot is Shot => !!shot);
}

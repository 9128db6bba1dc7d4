// What the motion engine needs to draw one scene, as plain JSON: the scene's layout (where the renderer's layout
// put its picture, panels, lines and logo), its role, key word and stickers, the style, the beat and where the
// scene sits in the ad. The JSON is the segment's "graph": its hash (with the picture's and logo's bytes) is the
// segment's cache key, so an edit of one scene draws and encodes that scene alone.
import type { FontFace } from "../font-family.ts";
import type { SceneLayout } from "../layout-base.ts";
import type { AdStyle, Scene, SceneRole, Sticker } from "../types.ts";

export const MOTION_SPEC = "adgen-motion-scene";

export interface MotionSpec {
  kind: typeof MOTION_SPEC;
  width: number;
  height: number;
  fps: number;
  /** Frames of this scene's segment. */
  frames: number;
  style: AdStyle;
  layout: SceneLayout;
  /**
   * The scene, without its place in the ad beyond "first" (so a scene keeps its segment when one before it is
   * removed or two swap): `variant` (from its words) picks its entrance and light.
   */
  scene: {
    first: boolean;
    variant: number;
    role: SceneRole;
    /** The camera move the director chose for the picture (default: a slow push in). */
    motion?: Scene["motion"];
    tone?: Scene["tone"];
    emphasis?: string;
    stickers: Sticker[];
    cta?: string;
  };
  /** Seconds per beat of the music bed: word groups and punches land on it. */
  beat: number;
  brand: { primary: string; secondary: string; accent: string };
  /** Font files by face (the renderer's own fonts). */
  fonts: Record<FontFace, string>;
  /** The picture and the logo, by the name they are linked under in the segment's directory (or a path). */
  picture?: string;
  logo?: string;
  /** Premium: finer motion (more drift, the light leak, a longer settle). */
  premium: boolean;
  /** Scene 0 also writes `thumb.jpg` of its first frame at this size. */
  thumb?: { w: number; h: number; quality: number };
}

/** The scene's role: as the copywriter set it, else from its place (first: hook, last: cta) and tone. */
export function roleOf(scene: Scene, index: number, count: number): SceneRole {
  if (scene.role) return scene.role;
  if (index === 0) return "hook";
  if (index === count - 1 && count > 1) return "cta";
  if (scene.tone === "problem") return "problem";
  if (scene.tone === "solution") return "solution";
  return "benefit";
}

/** True when the text of a graph file is a motion scene's spec. */
export const isMotionSpec = (graph: string) => graph.startsWith(`{"kind":"${MOTION_SPEC}"`);

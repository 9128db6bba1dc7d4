// The look of an ad beyond its copy: which picture each scene shows, how the camera moves over it, how
// the type arrives and what the music sounds like. The preset (`adPreset`, else the type's default)
// decides the motion, the kinetic typography and the music's mood, so two presets give visibly and
// audibly different ads from the same copy.
import type { MusicMood, SceneMotion, Storyboard, TextMotion } from "../../render/types.ts";
import type { Imagery } from "./imagery.ts";

interface PresetLook {
  /** Camera moves for the scenes with a picture, in turn. */
  motions: SceneMotion[];
  textMotion: TextMotion;
  mood: MusicMood;
}

/** What each preset looks and sounds like (ids from AD_PRESETS in schema/src/catalog.ts). */
export const PRESET_LOOKS: Record<string, PresetLook> = {
  bold: { motions: ["pan-left", "pan-right", "pan-up"], textMotion: "rise", mood: "energetic" },
  minimal: { motions: ["pan-up", "pan-down"], textMotion: "fade", mood: "calm" },
  luxury: { motions: ["push-in", "pan-right", "pull-out"], textMotion: "fade", mood: "luxurious" },
  playful: { motions: ["pan-right", "pan-up", "pan-left"], textMotion: "slide", mood: "playful" },
  documentary: { motions: ["pan-left", "pan-right"], textMotion: "none", mood: "warm" },
};

/** The preset a type uses when the request names none. */
const TYPE_PRESETS: Record<string, string> = {
  cinematic: "luxury",
  avatar: "minimal",
  factory: "bold",
  clone: "bold",
  influencer: "playful",
  brand: "minimal",
  staticad: "minimal",
  painpoint: "bold",
  "ad-optimizer": "bold",
  "local-audit": "documentary",
};

export function presetFor(request: { type: string; adPreset?: string | undefined }): string {
  return request.adPreset ?? TYPE_PRESETS[request.type] ?? "minimal";
}

/**
 * The storyboard with its pictures, logo, motion, kinetic type and mood. Pictures go on every scene before
 * the call to action (the first, the hook, always gets the best one), in turn. The last scene carries the logo. A motion
 * already set (a director's shot list) is kept.
 */
export function applyLook(storyboard: Storyboard, preset: string, imagery: Imagery | null): Storyboard {
  const look = PRESET_LOOKS[preset] ?? PRESET_LOOKS.minimal!;
  const pictures = imagery?.pictures ?? [];
  const last = storyboard.scenes.length - 1;
  let moved = 0;
  const scenes = storyboard.scenes.map((scene, i) => {
    // The product is on screen for most of the ad: every scene before the close shows a picture (one picture
    // is shown again, each time with another camera move).
    const showsPicture = pictures.length > 0 && i < Math.max(1, last);
    const picture = showsPicture ? pictures[i % pictures.length] : undefined;
    const motion = picture ? (scene.motion ?? look.motions[moved++ % look.motions.length]!) : scene.motion;
    return {
      ...scene,
      ...(picture ? { imageKey: picture.key } : {}),
      ...(motion ? { motion } : {}),
      textMotion: scene.textMotion ?? look.textMotion,
    };
  });
  // The user's own product footage, cut to the beats: each scene before the close plays the next stretch of
  // the clips (the hook first), until the clips run out; photos fill the scenes after that.
  const footage = imagery?.footage ?? [];
  let clip = 0;
  let at = 0;
  for (let i = 0; i < last && clip < footage.length; i++) {
    const scene = scenes[i]!;
    if (at + scene.durationSec > footage[clip]!.durationSec && at > 0) {
      clip += 1;
      at = 0;
      if (clip >= footage.length) break;
    }
    const { key, width, height } = footage[clip]!;
    scenes[i] = { ...scene, videoKey: key, videoStartSec: Math.round(at * 100) / 100, imageSize: { width, height } };
    at += scene.durationSec;
  }
  return {
    ...storyboard,
    mood: storyboard.mood ?? look.mood,
    brand: { ...storyboard.brand, ...(imagery?.logo ? { logoKey: imagery.logo.key } : {}) },
    scenes,
  };
}

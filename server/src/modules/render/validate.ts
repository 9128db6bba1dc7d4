import { ASPECT_RATIOS, type AspectRatio } from "@adgen/schema";
import { HEX_COLOR } from "./color.ts";
import type { MusicMood, SceneMotion, Storyboard, TextMotion } from "./types.ts";

export const LIMITS = {
  maxScenes: 50,
  minSceneSec: 0.5,
  maxSceneSec: 60,
  headlineChars: 300,
  bodyChars: 1000,
  ctaChars: 80,
  brandNameChars: 80,
} as const;

const TRANSITIONS = new Set(["fade", "slide", "wipe", "none"]);
const FILE_STEM = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

export class StoryboardValidationError extends Error {
  override readonly name = "StoryboardValidationError";
  constructor(readonly issues: string[]) {
    super(`Invalid storyboard: ${issues.join("; ")}`);
  }
}

const MOTIONS = new Set<SceneMotion>(["push-in", "pull-out", "pan-left", "pan-right", "pan-up", "pan-down", "static"]);
const TEXT_MOTIONS = new Set<TextMotion>(["rise", "slide", "fade", "none"]);
const MOODS = new Set<MusicMood>(["energetic", "calm", "luxurious", "playful", "warm"]);

/** Throws a {@link StoryboardValidationError} listing every problem found. */
export function validateStoryboard(storyboard: Storyboard): void {
  const issues: string[] = [];
  const color = (path: string, value: unknown) => {
    if (typeof value !== "string" || !HEX_COLOR.test(value)) issues.push(`${path} must be a #rrggbb colour (got ${JSON.stringify(value)})`);
  };
  const text = (path: string, value: unknown, max: number, required: boolean) => {
    if (value === undefined && !required) return;
    if (typeof value !== "string") issues.push(`${path} must be a string`);
    else if ([...value].length > max) issues.push(`${path} is longer than ${max} characters`);
  };
  if (!storyboard || typeof storyboard !== "object") throw new StoryboardValidationError(["storyboard must be an object"]);
  text("title", storyboard.title, 200, true);
  const brand = storyboard.brand;
  if (!brand || typeof brand !== "object") issues.push("brand is required");
  else {
    text("brand.name", brand.name, LIMITS.brandNameChars, true);
    for (const key of ["primary", "secondary", "accent", "text"] as const) color(`brand.${key}`, brand[key]);
    if (brand.logoPath !== undefined && (typeof brand.logoPath !== "string" || !brand.logoPath))
      issues.push("brand.logoPath must be a non-empty path");
  }
  if (storyboard.mood !== undefined && !MOODS.has(storyboard.mood)) issues.push(`mood must be one of ${[...MOODS].join(", ")}`);
  const scenes = storyboard.scenes;
  if (!Array.isArray(scenes) || scenes.length === 0) issues.push("at least one scene is required");
  else if (scenes.length > LIMITS.maxScenes) issues.push(`at most ${LIMITS.maxScenes} scenes are allowed`);
  else {
    scenes.forEach((scene, i) => {
      const at = `scenes[${i}]`;
      if (!scene || typeof scene !== "object") {
        issues.push(`${at} must be an object`);
        return;
      }
      const d = scene.durationSec;
      if (typeof d !== "number" || !Number.isFinite(d) || d < LIMITS.minSceneSec || d > LIMITS.maxSceneSec) {
        issues.push(`${at}.durationSec must be between ${LIMITS.minSceneSec} and ${LIMITS.maxSceneSec} seconds (got ${JSON.stringify(d)})`);
      }
      text(`${at}.headline`, scene.headline, LIMITS.headlineChars, true);
      text(`${at}.body`, scene.body, LIMITS.bodyChars, false);
      text(`${at}.cta`, scene.cta, LIMITS.ctaChars, false);
      color(`${at}.background`, scene.background);
      color(`${at}.accent`, scene.accent);
      if (!TRANSITIONS.has(scene.transition)) issues.push(`${at}.transition must be one of fade, slide, wipe, none`);
      if (scene.imagePath !== undefined && (typeof scene.imagePath !== "string" || !scene.imagePath)) {
        issues.push(`${at}.imagePath must be a non-empty path`);
      }
      if (scene.motion !== undefined && !MOTIONS.has(scene.motion)) issues.push(`${at}.motion must be one of ${[...MOTIONS].join(", ")}`);
      if (scene.textMotion !== undefined && !TEXT_MOTIONS.has(scene.textMotion)) {
        issues.push(`${at}.textMotion must be one of ${[...TEXT_MOTIONS].join(", ")}`);
      }
    });
  }
  if (issues.length) throw new StoryboardValidationError(issues);
}

export function validateFormat(format: AspectRatio): void {
  if (!(ASPECT_RATIOS as readonly string[]).includes(format)) {
    throw new Error(`Unknown format ${JSON.stringify(format)}; expected one of ${ASPECT_RATIOS.join(", ")}`);
  }
}

export function validateFileStem(stem: string): void {
  if (typeof stem !== "string" || !FILE_STEM.test(stem)) {
    throw new Error(
      `fileStem must be 1–200 characters of letters, digits, ".", "_" or "-" and start with a letter or digit (got ${JSON.stringify(stem)})`,
    );
  }
}

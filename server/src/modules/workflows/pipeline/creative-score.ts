// A creative score before anything is rendered, like the ones ad tools sell: 0–100 with the reasons,
// from checks a media buyer makes on a storyboard. It is kept in the result and shown in review.
// - hook: something worth reading on screen in the first two seconds, short enough to take in;
// - reading time: each scene's words can be read in the time it is on screen (≈ 3 words a second);
// - text density: no scene is a wall of text;
// - call to action: the ad ends by asking for something;
// - brand: the product or brand is named, and the brand's colours are used;
// - safe zones: every line of text, as the renderer lays it out, stays inside each platform's safe area;
// - a clean screen, judged on the storyboard as laid out in every format (layout-checks.ts) and on its copy
//   (screen-defects.ts): no copy cut off, no line ending in "…" or mid-clause, no text over other text, the
//   logo or the product, every line readable against what is behind it (4.5:1), no sentence of direction
//   or tone shown as copy, never two scenes' text at once in a transition, no beat or scene left empty, a
//   call to action, no wall of text. Any of these costs the check's whole weight, enough that an ad showing
//   one is never called "Strong" (75 and over).
import type { AspectRatio, CreativeScore } from "@adgen/schema";
import { locateFont } from "../../render/ffmpeg.ts";
import { type FontFamily, fontFamily } from "../../render/font-family.ts";
import type { Storyboard } from "../../render/types.ts";
import { type LaidOutScene, layOut, layoutDefects } from "./layout-checks.ts";
import { screenDefects, storyDefects, WALL_OF_TEXT_WORDS } from "./screen-defects.ts";

const WORDS_PER_SECOND = 3;
const HOOK_SECONDS = 2;
const HOOK_MAX_WORDS = 8;
const DENSE_WORDS = WALL_OF_TEXT_WORDS;

const wordsIn = (text: string | undefined) => (text ? (text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []).length : 0);

let fonts: FontFamily | null = null;
/** How many defects the clean-screen reason spells out before it counts the rest. */
const DEFECTS_SHOWN = 6;

export function scoreStoryboard(storyboard: Storyboard, formats: readonly AspectRatio[], product: string): CreativeScore {
  const checks: CreativeScore["checks"] = [];
  const scenes = storyboard.scenes;

  // Hook: the first scene starts at 0 s; its headline must be on screen and short.
  const first = scenes[0];
  const hookWords = wordsIn(first?.headline);
  const hookOk = !!first && first.durationSec >= Math.min(HOOK_SECONDS, 1) && hookWords > 0 && hookWords <= HOOK_MAX_WORDS;
  checks.push({
    id: "hook",
    label: "A hook in the first two seconds",
    points: hookOk ? 14 : hookWords > 0 ? 7 : 0,
    max: 14,
    reason: hookOk
      ? `Opens on "${first?.headline}" (${hookWords} words), readable at a glance`
      : hookWords > HOOK_MAX_WORDS
        ? `The opening line has ${hookWords} words; a hook reads in under two seconds with ${HOOK_MAX_WORDS} or fewer`
        : "The ad opens without a line of text",
  });

  // Reading time per scene.
  const slow = scenes.filter((s) => (wordsIn(s.headline) + wordsIn(s.body) + wordsIn(s.cta)) / WORDS_PER_SECOND > s.durationSec + 0.01);
  checks.push({
    id: "reading-time",
    label: "Every scene can be read while it is on screen",
    points: Math.round(14 * (1 - slow.length / Math.max(1, scenes.length))),
    max: 14,
    reason: slow.length
      ? `${slow.length} of ${scenes.length} scenes hold more words than ${WORDS_PER_SECOND} a second allows (${slow.map((s) => s.id).join(", ")})`
      : `Every scene reads at ${WORDS_PER_SECOND} words a second or less`,
  });

  // Text density.
  const dense = scenes.filter((s) => wordsIn(s.headline) + wordsIn(s.body) > DENSE_WORDS);
  checks.push({
    id: "text-density",
    label: "No scene is a wall of text",
    points: dense.length ? 3 : 10,
    max: 10,
    reason: dense.length ? `${dense.length} scenes carry more than ${DENSE_WORDS} words` : `At most ${DENSE_WORDS} words on any scene`,
  });

  // Call to action at the end.
  const cta = scenes.at(-1)?.cta;
  checks.push({
    id: "call-to-action",
    label: "A call to action",
    points: cta ? 11 : scenes.some((s) => s.cta) ? 5 : 0,
    max: 11,
    reason: cta ? `Ends with "${cta}"` : "The last scene asks the viewer for nothing",
  });

  // Brand presence: named on screen, in the brand's colours.
  const named = scenes.filter((s) => `${s.headline} ${s.body ?? ""}`.toLowerCase().includes(product.toLowerCase())).length;
  const coloured = scenes.filter((s) => s.background === storyboard.brand.primary || s.background === storyboard.brand.accent).length;
  checks.push({
    id: "brand",
    label: "Brand presence",
    points: (named > 0 ? 8 : 0) + (coloured > 0 ? 3 : 0),
    max: 11,
    reason: `${product} is named in ${named} of ${scenes.length} scenes; ${coloured} use the brand's colours`,
  });

  fonts ??= fontFamily(locateFont());
  const laid = layOut(storyboard, formats, fonts);
  checks.push(safeZoneCheck(laid, formats));
  checks.push(cleanScreenCheck(storyboard, laid, fonts));

  const score = checks.reduce((sum, c) => sum + c.points, 0);
  return { score, max: 100, checks };
}

/** Every line of text, as laid out, inside each platform's safe area (lines dropped to fit count as out). */
function safeZoneCheck(laid: readonly LaidOutScene[], formats: readonly AspectRatio[]): CreativeScore["checks"][number] {
  const outside: string[] = [];
  for (const { scene, format, layout } of laid) {
    const { safe } = layout;
    const out = layout.texts.some(
      (t) =>
        t.centerX - t.width / 2 < safe.x - 1 ||
        t.centerX + t.width / 2 > safe.x + safe.w + 1 ||
        t.baseline - t.size < safe.y - 1 ||
        t.baseline > safe.y + safe.h + 1,
    );
    // The optimizer finds the scenes to fix by this wording ("<scene id> in <format>").
    if (out || layout.truncated) outside.push(`${scene.id} in ${format}`);
  }
  return {
    id: "safe-zone",
    label: "Text inside each platform's safe zone",
    points: outside.length ? 0 : 10,
    max: 10,
    reason: outside.length
      ? `Text leaves the safe zone: ${outside.join(", ")}`
      : `All text stays clear of platform buttons and captions in ${formats.join(", ")}`,
  };
}

/** Nothing a marketer would refuse to post: the laid-out screen's defects, then the copy's and the story's. */
function cleanScreenCheck(storyboard: Storyboard, laid: readonly LaidOutScene[], family: FontFamily): CreativeScore["checks"][number] {
  const defects = [...layoutDefects(laid, family), ...screenDefects(storyboard), ...storyDefects(storyboard)];
  const rest = defects.length - DEFECTS_SHOWN;
  return {
    id: "clean-screen",
    label: "Nothing broken on screen",
    points: defects.length ? 0 : 30,
    max: 30,
    reason: defects.length
      ? defects.slice(0, DEFECTS_SHOWN).join("; ") + (rest > 0 ? `; and ${rest} more` : "")
      : "All copy is on screen and whole, readable, clear of the product, the logo and other text; none is direction or tone; one scene's text at a time",
  };
}

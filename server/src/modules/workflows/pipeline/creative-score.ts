// A creative score before anything is rendered, like the ones ad tools sell: 0–100 with the reasons,
// from checks a media buyer makes on a storyboard. It is kept in the result and shown in review.
// - hook: something worth reading on screen in the first two seconds, short enough to take in;
// - reading time: each scene's words can be read in the time it is on screen (≈ 3 words a second);
// - text density: no scene is a wall of text;
// - call to action: the ad ends by asking for something;
// - brand: the product or brand is named, and the brand's colours are used;
// - safe zones: every line of text, as the renderer lays it out, stays inside each platform's safe area;
// - a clean screen (screen-defects.ts): no line cut short or ending mid-clause, no sentence of direction or
//   tone shown as copy, never two scenes' text at once in a transition. Any of these costs the check's
//   whole weight, enough that an ad showing one is never called "Strong" (75 and over).
import type { AspectRatio, CreativeScore } from "@adgen/schema";
import { FORMATS } from "@adgen/schema";
import { fontMetrics } from "../../render/font-metrics.ts";
import { locateFont } from "../../render/ffmpeg.ts";
import { layoutScene } from "../../render/layout.ts";
import type { Storyboard } from "../../render/types.ts";
import { screenDefects } from "./screen-defects.ts";

const WORDS_PER_SECOND = 3;
const HOOK_SECONDS = 2;
const HOOK_MAX_WORDS = 8;
const DENSE_WORDS = 22;

const wordsIn = (text: string | undefined) => (text ? (text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []).length : 0);

let metrics: ReturnType<typeof fontMetrics> | null = null;

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

  // Safe zones, with the renderer's own layout.
  metrics ??= fontMetrics(locateFont());
  const outside: string[] = [];
  const cut: string[] = [];
  for (const format of formats) {
    const size = FORMATS.find((f) => f.ratio === format);
    if (!size) continue;
    for (const scene of scenes) {
      const layout = layoutScene({
        scene,
        brand: storyboard.brand,
        format,
        width: size.width,
        height: size.height,
        metrics,
        hasImage: !!scene.imagePath,
      });
      const { safe } = layout;
      const out = layout.texts.some(
        (t) =>
          t.centerX - t.width / 2 < safe.x - 1 ||
          t.centerX + t.width / 2 > safe.x + safe.w + 1 ||
          t.baseline - t.size < safe.y - 1 ||
          t.baseline > safe.y + safe.h + 1,
      );
      if (out || layout.truncated) outside.push(`${scene.id} in ${format}`);
      if (layout.truncated && !cut.includes(`${scene.id} in ${format}`)) cut.push(`${scene.id} in ${format}`);
    }
  }
  checks.push({
    id: "safe-zone",
    label: "Text inside each platform's safe zone",
    points: outside.length ? 0 : 10,
    max: 10,
    reason: outside.length
      ? `Text leaves the safe zone: ${outside.join(", ")}`
      : `All text stays clear of platform buttons and captions in ${formats.join(", ")}`,
  });

  const defects = [...screenDefects(storyboard), ...cut.map((where) => `lines were dropped to fit ${where}`)];
  checks.push({
    id: "clean-screen",
    label: "Nothing broken on screen",
    points: defects.length ? 0 : 30,
    max: 30,
    reason: defects.length
      ? defects.slice(0, 4).join("; ") + (defects.length > 4 ? `; and ${defects.length - 4} more` : "")
      : "Every line is whole, none is direction or tone, and one scene's text is on screen at a time",
  });

  const score = checks.reduce((sum, c) => sum + c.points, 0);
  return { score, max: 100, checks };
}

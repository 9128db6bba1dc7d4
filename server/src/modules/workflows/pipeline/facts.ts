// Facts the viewer sees or hears: a sentence of the knowledge base (or the product page) counts as used only
// when a line of the storyboard says it, whole or cut where a clause ends. A narrated ad shows its captions,
// not its scenes' text, so there a fact must be a headline (headlines are what the narration always says).
// `result.sources` lists only the passages whose facts reached the ad.
import type { KnowledgeSource } from "@adgen/schema";
import type { Scene, Storyboard } from "../../render/types.ts";

const NARRATED = new Set(["avatar", "influencer"]);
const norm = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}%]+/gu, " ")
    .trim();

/** True when `line` says `fact`: the same words, or the fact's start cut where a clause ends (three words at least). */
export function says(line: string, fact: string): boolean {
  const a = norm(line);
  const b = norm(fact);
  if (!a || !b) return false;
  return a === b || (a.split(" ").length >= 3 && (b.startsWith(`${a} `) || a.includes(b)));
}

/** The lines of a scene a viewer of this type takes in: all of them, or in a narrated ad its headline, call to action and badges. */
export function linesSeen(scene: Scene, type: string): string[] {
  const lines = NARRATED.has(type) ? [scene.headline, scene.cta] : [scene.headline, scene.body, scene.cta];
  // A badge beside the copy is seen in every type (a fact badge is how a narrated ad shows a fact it does not speak).
  for (const sticker of scene.stickers ?? []) lines.push(sticker.text);
  return lines.filter((line): line is string => !!line?.trim());
}

/** The facts some line of the storyboard says, in the facts' order. */
export function factsShown(storyboard: Storyboard, facts: readonly string[], type: string): string[] {
  const seen = storyboard.scenes.flatMap((scene) => linesSeen(scene, type));
  return facts.filter((fact) => seen.some((line) => says(line, fact)));
}

/** The knowledge passages whose facts the storyboard says (a fact is a sentence of its passage). */
export function sourcesShown(
  sources: readonly KnowledgeSource[],
  facts: readonly string[],
  storyboard: Storyboard,
  type: string,
): KnowledgeSource[] {
  const shown = factsShown(storyboard, facts, type).map(norm);
  return sources.filter((source) => {
    const passage = norm(source.passage);
    return shown.some((fact) => passage.includes(fact));
  });
}

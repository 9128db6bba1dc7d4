// What the motion engine needs to know about each scene beyond its words: its role in the story (the hook
// opens, proof shows evidence, the cta closes), the headline's key word to highlight, and the badges beside
// the copy. Every badge is read from a line of the ad or from a fact of the brief, page or knowledge base
// (stickers.ts) and checked against those texts, so none is invented; a line a badge says in full leaves
// the scene's body, so the viewer does not read it twice.
import type { Scene, SceneRole, Sticker } from "../../render/types.ts";
import { says } from "./facts.ts";
import { is, parse } from "./sentence-parse.ts";
import { stickerBackedBy, stickersOfLine } from "./stickers.ts";

/** Beat roles of the frameworks (art-direction.ts), of an inspiration's reference and of the seasonal greeting. */
const ROLE_OF_BEAT: Record<string, SceneRole> = {
  problem: "problem",
  agitate: "problem",
  need: "problem",
  solution: "solution",
  guide: "solution",
  hero: "benefit",
  interest: "benefit",
  plan: "benefit",
  difference: "benefit",
  value: "benefit",
  timeline: "benefit",
  benefit: "benefit",
  scarcity: "benefit",
  budget: "benefit",
  offer: "benefit",
  desire: "proof",
  proof: "proof",
  "social-proof": "proof",
  authority: "proof",
  fact: "proof",
  action: "cta",
  success: "cta",
  cta: "cta",
  hook: "hook",
  attention: "hook",
  greeting: "hook",
};

/** The role of the scene written for `beat`, at `index` of `count`: the first scene is the hook, one with a call to action closes. */
export function sceneRole(beat: string, index: number, count: number, hasCta: boolean): SceneRole {
  if (index === 0) return "hook";
  if (hasCta || index === count - 1) return "cta";
  const role = ROLE_OF_BEAT[beat] ?? "benefit";
  return role === "hook" ? "benefit" : role;
}

/** A figure with its unit ("20%", "$2 a day", "12 days", "4.8", "2,314"), as written. */
const FIGURE =
  /(?<![\p{L}\p{N}/])(?:[$€£]\s?\d[\d,.]*|\d[\d,.]*(?:\s?%|\s?x\b|[- ](?:night|day|hour|minute|week|month|year|mile|km)s?\b|\s(?:hours?|minutes?|days?|weeks?|months?|years?|stars?|reviews?|customers|grams|miles)\b)?)/iu;
const WEAK = new Set(
  "a an the your our my their its this that you we it is are be get got new more most all every one ready want need made meet still just".split(
    " ",
  ),
);

/**
 * The headline's key word or words, as written in it: a figure ("20%", "12 days"), else the product's name,
 * else the word the line turns on (an adjective said of the subject, "ultra-processed"; the last adjective;
 * else the head noun of the last phrase). Null for a headline of a word or two (it is all emphasis).
 */
export function emphasisOf(headline: string, names: readonly string[] = []): string | null {
  const text = headline.trim();
  if (text.split(/\s+/).length < 2) return null;
  // The product's name alone ("Smile Studio") is all emphasis already.
  if (names.some((n) => n === text.replace(/[.!?]+$/, ""))) return null;
  for (const figure of text.matchAll(new RegExp(FIGURE.source, "giu"))) {
    const said = figure[0].trim().replace(/[,.]+$/, "");
    // A bare small number ("SOC 2", "up to 5") or a range ("30-50") says nothing on its own.
    const bare = /^\d+$/.test(said) && !/\d,\d/.test(said);
    if (/\d/.test(said) && !bare && !/^-\d/.test(text.slice((figure.index ?? 0) + figure[0].length))) return said;
  }
  const name = [...names].sort((a, b) => b.length - a.length).find((n) => n.length >= 3 && text.includes(n) && n !== text);
  if (name) return name;
  const words = parse(text.replace(/[.!?]+$/, "")).filter((w) => !WEAK.has(w.lower));
  const tokens = text.split(/\s+/).map((t) => t.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""));
  // The whole written word ("ultra-processed", not "processed").
  const pick = (word: (typeof words)[number] | undefined) => (word ? (tokens.find((t) => t.includes(word.text)) ?? null) : null);
  const adjective = [...words].reverse().find((w) => is(w, "Adjective") && !is(w, "Determiner") && w.text.length > 2);
  if (adjective) return pick(adjective);
  // A time ("this month", "every two weeks") is rarely what the line is about.
  const noun = [...words].reverse().find((w) => is(w, "Noun") && !is(w, "Pronoun", "Date", "Duration") && w.text.length > 2);
  return pick(noun);
}

/** Badges a scene may carry. */
const MAX_STICKERS = 2;
const norm = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}%$€£]+/gu, " ")
    .trim();

export interface MarkSources {
  /** The brief, brand profile, page and knowledge as one text: every badge's figures must be in it. */
  source: string;
  /** Names that keep their capitals (the emphasis prefers them). */
  names: readonly string[];
  /** Lines of evidence and offers the ad may show as badges where no scene says them (a rating, a price). */
  proofs: readonly string[];
  offers: readonly string[];
  /** Knowledge facts: in a narrated ad, one a scene's body says (unspoken) is shown as a fact badge. */
  facts: readonly string[];
  narrated: boolean;
}

/** Longest fact badge (a short line beside the captions). */
const FACT_STICKER_MAX = 60;

/**
 * Each scene with its role, emphasis and badges. `beats` names the beat each scene was written for (same
 * order); badges come from the scene's own lines first, then a rating, price or offer of the copy that no
 * scene shows goes to the proof scene or the close; each badge once per ad, at most two a scene.
 */
export function markScenes(scenes: readonly Scene[], beats: readonly string[], sources: MarkSources): Scene[] {
  const usedKinds = new Set<string>();
  const usedTexts = new Set<string>();
  const marked = scenes.map((scene, i) => {
    const role = scene.role ?? sceneRole(beats[i] ?? scene.id.replace(/^scene-\d+-/, ""), i, scenes.length, !!scene.cta);
    const stickers: Sticker[] = [];
    const add = (sticker: Sticker) => {
      const key = norm(sticker.text);
      if (stickers.length >= MAX_STICKERS || usedTexts.has(key) || (sticker.kind === "rating" && usedKinds.has("rating"))) return false;
      if (!stickerBackedBy(sticker, sources.source)) return false;
      stickers.push(sticker);
      usedTexts.add(key);
      usedKinds.add(sticker.kind);
      return true;
    };
    for (const line of [scene.headline, scene.body].filter((l): l is string => !!l)) for (const s of stickersOfLine(line)) add(s);
    let body = scene.body;
    // A body a badge says whole ("Rated 4.8 from 2,314 reviews.") is shown once, as the badge.
    if (body && stickers.some((s) => norm(body!).replace(/^(rated|only|just|plans|memberships|prices?) /, "") === norm(s.text)))
      body = undefined;
    // A narrated ad speaks its headlines; a knowledge fact its body holds is shown beside the captions.
    if (sources.narrated && body) {
      const fact = sources.facts.find((f) => says(body!, f));
      if (fact && body.length <= FACT_STICKER_MAX) add({ kind: "fact", text: body.replace(/[.]$/, "") });
    }
    const emphasis = emphasisOf(scene.headline, sources.names);
    const { body: _body, ...rest } = scene;
    return {
      ...rest,
      ...(body ? { body } : {}),
      role,
      ...(emphasis ? { emphasis } : {}),
      ...(stickers.length ? { stickers } : {}),
    } satisfies Scene;
  });
  // Evidence and offers the copy holds but no scene said: the rating beside the proof, a price or offer at the close.
  const place = (sticker: Sticker, roles: SceneRole[]) => {
    const key = norm(sticker.text);
    if (usedTexts.has(key) || (sticker.kind === "rating" && usedKinds.has("rating"))) return;
    if (!stickerBackedBy(sticker, sources.source)) return;
    const target = roles.map((r) => marked.find((s) => s.role === r && (s.stickers?.length ?? 0) < MAX_STICKERS)).find(Boolean);
    if (!target) return;
    target.stickers = [...(target.stickers ?? []), sticker];
    usedTexts.add(key);
    usedKinds.add(sticker.kind);
  };
  for (const line of sources.proofs)
    for (const s of stickersOfLine(line).filter((s) => s.kind === "rating")) place(s, ["proof", "benefit", "cta"]);
  for (const line of sources.offers) for (const s of stickersOfLine(line).filter((s) => s.kind !== "rating")) place(s, ["cta", "benefit"]);
  return marked;
}

/**
 * After someone else wrote a scene's words (the language model, an optimizer, a hook variant): the role
 * kept, the emphasis read again from the headline as it now is, the badges kept (they are facts).
 */
export function remarkScenes(scenes: readonly Scene[], names: readonly string[]): Scene[] {
  return scenes.map((scene, i) => {
    const { emphasis: _old, ...rest } = scene;
    const emphasis = scene.emphasis && scene.headline.includes(scene.emphasis) ? scene.emphasis : emphasisOf(scene.headline, names);
    return {
      ...rest,
      role: scene.role ?? sceneRole(scene.id.replace(/^scene-\d+-/, ""), i, scenes.length, !!scene.cta),
      ...(emphasis ? { emphasis } : {}),
    };
  });
}

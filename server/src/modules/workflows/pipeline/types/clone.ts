// clone (Inspiration): what the reference at `url` does, and a new ad with that structure. The page
// reader hands over the reference's outline (headings, text and buttons in reading order); each section
// becomes a beat with a role (hook, problem, benefit, proof, offer, call to action), its words set the
// pacing, and its buttons the call to action. The new ad has the same beats in the same order, timed by
// that pacing, but every word of it comes from the user's concept and brand: the reference lends its
// structure, never its lines. A reference that cannot be read fails the job (refunded); one read but with
// too little structure gives a standard structure and a warning.
import { type ReferenceAnalysis, STEP, type WorkflowRequest } from "@adgen/schema";
import type { Storyboard } from "../../../render/types.ts";
import { type ArtDirectionInput, type Beat, directAd, type Lines, scene } from "../art-direction.ts";
import { painFromBenefit } from "../copy.ts";
import { scoreStoryboard } from "../creative-score.ts";
import { PermanentJobError } from "../job-errors.ts";
import type { ArtDirection, PageFacts, PipelineStep } from "../step-types.ts";

export type { ReferenceAnalysis };

/** Whether the page reader should also read the page's outline. */
export const wantsPageOutline = (request: WorkflowRequest) => request.type === "clone";

/** More beats than this make a slideshow, not an ad: the rest of a long page is left out. */
export const MAX_BEATS = 6;
/** Fewer than this is no structure to follow. */
const MIN_BEATS = 2;
/** A scene is on screen at least this long (the renderer's limit). */
const MIN_SCENE_SECONDS = 0.5;
/** Words a viewer skims per second: sets the seconds per beat from the reference's on-screen words. */
const SKIM_WORDS_PER_SECOND = 4;
/** Of a section's body text, only this much would be on screen. */
const MAX_BODY_WORDS = 12;
const MAX_BEAT_TEXT = 120;
const MAX_ON_SCREEN = 12;

const PAIN = /\?$|tired of|sick of|struggl|hate|no more|stop |never again|waste|hassle|problem|frustrat|annoy|without the|worr/i;
const OFFER = /[$€£]\s?\d|\d+\s?%|\bfree\b|\boff\b|\bsale\b|discount|\btoday\b|limited|trial|deal\b/i;
const PROOF = /\d|award|rated|trusted|certified|reviews?\b|stars?\b|customers|guarantee|best-selling|#1|★/i;

const wordsIn = (text: string) => (text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []).length;
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1).replace(/\s+\S*$/, "")}…` : text);
const round1 = (n: number) => Math.round(n * 10) / 10;

interface Section {
  heading: string | null;
  texts: string[];
  buttons: string[];
}

/** The outline cut into sections: each heading starts one; text and buttons belong to the section they are in. */
function sectionsOf(page: PageFacts): Section[] {
  const sections: Section[] = [];
  for (const block of page.outline?.blocks ?? []) {
    let current = sections.at(-1);
    if (block.kind === "heading" || !current) {
      current = { heading: null, texts: [], buttons: [] };
      sections.push(current);
    }
    if (block.kind === "heading") current.heading = block.text;
    else if (block.kind === "text") current.texts.push(block.text);
    else current.buttons.push(block.text);
  }
  // A page without headings still says something in its title and description.
  if (!sections.some((s) => s.heading)) {
    const intro = [page.title, page.description].filter((t): t is string => !!t);
    const buttons = sections.flatMap((s) => s.buttons);
    if (intro.length) return intro.map((text, i) => ({ heading: text, texts: [], buttons: i === intro.length - 1 ? buttons : [] }));
  }
  return sections.filter((s) => s.heading || s.texts.length);
}

function roleOf(section: Section, index: number, ctaIndex: number): string {
  if (index === 0) return "hook";
  if (index === ctaIndex) return "call-to-action";
  const text = [section.heading, ...section.texts.slice(0, 1)].filter(Boolean).join(" ");
  if (PAIN.test(section.heading ?? text)) return "problem";
  if (OFFER.test(text)) return "offer";
  if (PROOF.test(text)) return "proof";
  return "benefit";
}

/** Reads the reference's structure from the page read_page fetched (with its outline). */
export function analyseReference(page: PageFacts | undefined, url: string): ReferenceAnalysis {
  const unreadable: ReferenceAnalysis = {
    url,
    hook: null,
    beats: [],
    pacing: { label: "medium", secondsPerBeat: 2.5 },
    onScreenText: [],
    callToAction: null,
    readable: false,
  };
  if (!page?.outline) return unreadable;
  const all = sectionsOf(page);
  if (all.length === 0) return unreadable;

  // The call to action: the last section with a button (after the opening); a button only in the opening
  // section still closes the ad, as a beat of its own.
  const lastWithButton = all.findLastIndex((s) => s.buttons.length > 0);
  const buttons = all.flatMap((s) => s.buttons);
  const callToAction = lastWithButton >= 0 ? all[lastWithButton]!.buttons[0]! : null;
  let sections = all;
  let ctaIndex = lastWithButton > 0 ? lastWithButton : -1;
  if (sections.length > MAX_BEATS) {
    // Keep the opening beats and, if it comes later, the call to action at its place: the end.
    const cta = ctaIndex >= MAX_BEATS ? sections[ctaIndex]! : null;
    sections = [...sections.slice(0, cta ? MAX_BEATS - 1 : MAX_BEATS), ...(cta ? [cta] : [])];
    if (cta) ctaIndex = sections.length - 1;
  }
  const beats = sections.map((section, i) => ({
    role: roleOf(section, i, ctaIndex),
    text: clip(section.heading ?? section.texts[0] ?? "", MAX_BEAT_TEXT),
  }));
  if (ctaIndex === -1 && callToAction && beats.length < MAX_BEATS) beats.push({ role: "call-to-action", text: callToAction });

  // Pacing: the seconds a viewer needs to skim each beat's on-screen words (its heading and the start of
  // its text), averaged; more words per beat read slower.
  const onScreenWords = sections.map((s) => wordsIn(s.heading ?? "") + Math.min(MAX_BODY_WORDS, s.texts[0] ? wordsIn(s.texts[0]) : 0));
  const average = onScreenWords.reduce((sum, n) => sum + n, 0) / Math.max(1, onScreenWords.length);
  const secondsPerBeat = round1(Math.min(5, Math.max(1.5, average / SKIM_WORDS_PER_SECOND)));
  const label = secondsPerBeat <= 2.2 ? "fast" : secondsPerBeat <= 3.5 ? "medium" : "slow";

  const onScreenText = [...new Set([...all.map((s) => s.heading).filter((h): h is string => !!h), ...buttons])]
    .filter((line) => line.length <= 80)
    .slice(0, MAX_ON_SCREEN);
  return {
    url,
    hook: beats[0]?.text ?? null,
    beats,
    pacing: { label, secondsPerBeat },
    onScreenText,
    callToAction,
    readable: true,
  };
}

/** clone: reads the reference's structure (the page was read, with its outline, by read_page). */
export const referenceAnalysisStep: PipelineStep = {
  name: STEP.referenceAnalysis,
  weight: 5,
  async run({ request, outputs }) {
    const page = outputs.get(STEP.readPage) as PageFacts | undefined;
    // A reference that was not read is not followed: the job fails and is refunded (read_page stops it first).
    if (!page?.outline)
      throw new PermanentJobError(`We could not read the reference at ${page?.url ?? request.url}, so there is nothing to follow.`);
    return analyseReference(page, page?.url ?? request.url ?? "") satisfies ReferenceAnalysis;
  },
};

// ---------------------------------------------------------------------------------------------- the new ad

type SceneCopy = NonNullable<ReturnType<Beat["write"]>>;

const own = (l: Lines, line: string | null) => withoutProduct(line, l.copy.product);

/** Any line the copy has not said yet, else a plain one naming the product: every beat of the reference gets a scene. */
function anyLine(l: Lines): SceneCopy {
  return scene(l.benefit() ?? l.proof() ?? l.offer() ?? l.pain() ?? l.tagline(), () => null) ?? { headline: `Meet ${l.copy.product}` };
}

/**
 * A line without the product name it opens with ("Brewly: smooth coffee in ten seconds" → "Smooth coffee
 * in ten seconds"): one scene per beat has room for one idea, and the closing scene names the product.
 */
function withoutProduct(line: string | null, product: string): string | null {
  if (!line) return null;
  const escaped = product.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const rest = line.replace(new RegExp(`^${escaped}\\s*[:,–—-]\\s+`, "i"), "");
  return rest === line || !rest ? line : rest.charAt(0).toUpperCase() + rest.slice(1);
}

/** What the user's copy says in each role of the reference. */
const WRITERS: Record<string, (l: Lines) => SceneCopy | null> = {
  hook: (l) => scene(own(l, l.tagline() ?? l.benefit() ?? l.copy.product), () => own(l, l.benefit())),
  problem: (l) => {
    const benefit = withoutProduct(l.copy.benefits[0] ?? null, l.copy.product);
    return scene(l.pain() ?? (benefit ? painFromBenefit(benefit) : null), () => (l.copy.audience ? `For ${l.copy.audience}` : null));
  },
  benefit: (l) => scene(own(l, l.benefit()), () => own(l, l.proof())),
  proof: (l) => scene(own(l, l.proof() ?? l.benefit()), () => own(l, l.benefit())),
  offer: (l) => scene(own(l, l.offer() ?? l.benefit()), () => own(l, l.proof())),
  "call-to-action": (l) => scene(l.copy.product, () => l.offer(), l.copy.cta),
};

/** The reference's beats, written from the user's copy; the last one always asks for the action. */
function beatsFollowing(analysis: ReferenceAnalysis, count: number): Beat[] {
  return analysis.beats.slice(0, count).map((beat, i, all) => ({
    role: beat.role,
    write: (l: Lines) => {
      const written = (WRITERS[beat.role] ?? WRITERS.benefit!)(l) ?? anyLine(l);
      return i === all.length - 1 && !written.cta ? { ...written, cta: l.copy.cta } : written;
    },
  }));
}

/** Scene durations from the reference's pacing, shortened evenly when they would pass the longest ad. */
function paced(storyboard: Storyboard, secondsPerBeat: number, maxAdSeconds: number): Storyboard {
  const count = storyboard.scenes.length;
  const total = Math.max(2, maxAdSeconds);
  const per = Math.max(MIN_SCENE_SECONDS, Math.floor(Math.min(secondsPerBeat, total / count) * 100) / 100);
  return { ...storyboard, scenes: storyboard.scenes.map((s) => ({ ...s, durationSec: per })) };
}

export interface CloneDirection extends ArtDirection {
  /** Why the ad does not follow the reference (absent when it does). */
  structureWarning?: string;
}

/**
 * The clone's art direction: the reference's beats in order, each written from the user's concept and
 * brand (never from the reference's page), timed by its pacing. Without a structure to follow, the
 * type's standard framework.
 */
export function directClone(input: ArtDirectionInput, analysis: ReferenceAnalysis): CloneDirection {
  // The reference is someone else's ad: its words, pictures and colours are not the user's brand.
  const own: ArtDirectionInput = { ...input, page: null };
  const fits = Math.floor(Math.max(2, input.maxAdSeconds) / MIN_SCENE_SECONDS);
  if (!analysis.readable || analysis.beats.length < MIN_BEATS) {
    const why = !analysis.readable
      ? `The reference at ${analysis.url} could not be read, so the ad follows a standard structure instead of the reference's`
      : `The reference at ${analysis.url} has too little structure to follow (${analysis.beats.length} beat), so the ad follows a standard structure`;
    return { ...directAd(own), structureWarning: why };
  }
  const count = Math.min(analysis.beats.length, fits);
  const direction = directAd({ ...own, beats: beatsFollowing(analysis, count) });
  const storyboard = paced(direction.storyboard, analysis.pacing.secondsPerBeat, input.maxAdSeconds);
  return {
    ...direction,
    framework: "reference",
    storyboard,
    creativeScore: scoreStoryboard(storyboard, direction.formats, storyboard.brand.name),
    ...(count < analysis.beats.length
      ? {
          structureWarning: `The ad follows the reference's first ${count} of ${analysis.beats.length} beats: a longer ad is not allowed here`,
        }
      : {}),
  };
}

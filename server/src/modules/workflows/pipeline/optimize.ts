// ad-optimizer: an improved version of one of the user's projects. It starts from the project's
// storyboard, its creative score and what the user said about it (the rating and its feedback, the
// review's feedback), and fixes what those point at: scenes too short to read, a long or weak hook, text
// walls, a missing call to action, a brand that is never named, text outside the safe zones. Every
// change is kept with what it was, what it became and why; both ads are scored on the same checks.
import { existsSync } from "node:fs";
import {
  type BrandProfileInput,
  type CreativeScore,
  formatsFor,
  type Optimization,
  type OptimizationChange,
  type WorkflowRequest,
} from "@adgen/schema";
import type { Job } from "@adgen/prisma";
import type { Scene, Storyboard } from "../../render/types.ts";
import type { ArtDirection } from "./step-types.ts";
import { type AdCopy, fitWords, HEADLINE_MAX, painFromBenefit, writeCopy } from "./copy.ts";
import { scoreStoryboard } from "./creative-score.ts";

/** The creative score's own thresholds: a hook reads at a glance, a scene at three words a second. */
const HOOK_MAX_WORDS = 6;
const WORDS_PER_SECOND = 3;
const DENSE_WORDS = 22;
/** A scene shorter than this cannot be read, whatever it says. */
const READABLE_SCENE_SECONDS = 1.5;
const MIN_SCENES = 2;
/** A headline short enough to stay in every platform's safe zone. */
const SAFE_HEADLINE = 32;

const wordsIn = (text: string | undefined | null) => (text ? (text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []).length : 0);
const quote = (text: string) => `"${text}"`;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** What the user said about the source project: its rating and feedback, and the review's feedback. */
function performanceOf(job: Job): Optimization["performance"] {
  const feedback = [job.ratingFeedback, job.reviewFeedback].filter((f): f is string => !!f?.trim()).map((f) => f.trim());
  return { ratingsUp: job.rating === "up" ? 1 : 0, ratingsDown: job.rating === "down" ? 1 : 0, feedback };
}

const COMPLAINTS = {
  text: /\b(text|words?|read|busy|clutter|wordy|long lines?)\b/i,
  pacing: /\b(long|slow|drag|too many|fast|rushed|quick)\b/i,
  hook: /\b(hook|boring|attention|start|opening|first)\b/i,
  cta: /\b(call to action|cta|button|buy|click|action|what to do)\b/i,
  brand: /\b(brand|logo|name|who)\b/i,
};

export interface OptimizeInput {
  /** The project being improved, and its storyboard. */
  source: { job: Job; storyboard: Storyboard };
  request: WorkflowRequest;
  brand: (BrandProfileInput & { id: string }) | null;
  maxAdSeconds: number;
}

export interface OptimizedDirection extends ArtDirection {
  optimization: Optimization;
}

/** Files of an earlier job's scratch space are gone: a picture is kept by its media key only. */
function withoutStalePaths(storyboard: Storyboard): Storyboard {
  const { logoPath, ...brand } = storyboard.brand as Storyboard["brand"] & { logoPath?: string };
  return {
    ...storyboard,
    brand: logoPath && existsSync(logoPath) ? { ...brand, logoPath } : brand,
    scenes: storyboard.scenes.map(({ imagePath, ...scene }) => (imagePath && existsSync(imagePath) ? { ...scene, imagePath } : scene)),
  };
}

function sceneWords(scene: Scene): number {
  return wordsIn(scene.headline) + wordsIn(scene.body) + wordsIn(scene.cta);
}

/** A shorter opening line: the quoted tagline, the headline's first clause, a short benefit, the product. */
function shorterHook(headline: string, copy: AdCopy): string | null {
  const firstClause = headline.split(/\s*[,:;–—]\s+|\s+-\s+/)[0] ?? "";
  const candidates = [copy.tagline, firstClause, ...copy.benefits, copy.product];
  return (
    candidates.find((line): line is string => !!line && line !== headline && wordsIn(line) > 0 && wordsIn(line) <= HOOK_MAX_WORDS) ?? null
  );
}

/** The shortest clause of `text` that says something besides the product's name (2 to 8 words), if any. */
function pointOf(text: string, product: string): string | null {
  const clauses = text
    .split(/\s*[.:;,–—!?]\s+|\s*[.!?]$/)
    .map((c) => c.trim())
    .filter((c) => wordsIn(c) >= 2 && wordsIn(c) <= 8 && c.toLowerCase() !== product.toLowerCase());
  const best = clauses.sort((a, b) => wordsIn(a) - wordsIn(b))[0];
  return best ? best.charAt(0).toUpperCase() + best.slice(1) : null;
}

/** The ad being improved: its scenes so far and the changes made, with what each fix needs to know. */
interface Draft {
  original: Storyboard;
  scenes: Scene[];
  changes: OptimizationChange[];
  copy: AdCopy;
  product: string;
  /** The user's feedback line matching a complaint, if any. */
  said(pattern: RegExp): string | undefined;
  /** " You said: …" when the user's feedback asked for this change. */
  because(pattern: RegExp): string;
}

/**
 * Pacing: scenes too short to read are merged away (the hook and the call to action stay), and the ad
 * fits the longest ad allowed here.
 */
function fixPacing(d: Draft, maxAdSeconds: number): void {
  const { original, changes } = d;
  let scenes = d.scenes;
  const total = round2(
    Math.min(
      Math.max(2, maxAdSeconds),
      scenes.reduce((sum, s) => sum + s.durationSec, 0),
    ),
  );
  const readable = Math.max(MIN_SCENES, Math.floor(total / READABLE_SCENE_SECONDS));
  const slowerAsked = d.said(COMPLAINTS.pacing) && scenes.length > MIN_SCENES;
  const keep = Math.min(scenes.length, slowerAsked ? Math.min(readable, scenes.length - 1) : readable);
  if (keep < scenes.length) {
    const dropped = scenes.slice(keep - 1, -1);
    const beforeText = `${scenes.length} scenes of about ${round2(total / scenes.length)} s`;
    scenes = [...scenes.slice(0, keep - 1), scenes.at(-1)!];
    changes.push({
      area: "pacing",
      before: beforeText,
      after: `${scenes.length} scenes of about ${round2(total / scenes.length)} s`,
      why: `At ${round2(total / (scenes.length + dropped.length))} s a scene there is no time to read it (about ${WORDS_PER_SECOND} words a second); the hook and the call to action stay, ${dropped.map((s) => quote(s.headline)).join(", ")} ${dropped.length === 1 ? "was" : "were"} dropped.${d.because(COMPLAINTS.pacing)}`,
    });
  }
  const sourceTotal = original.scenes.reduce((sum, s) => sum + s.durationSec, 0);
  if (keep < original.scenes.length || sourceTotal > total + 0.01) {
    const per = Math.floor((total / scenes.length) * 100) / 100;
    scenes = scenes.map((s, i) => ({ ...s, durationSec: i === scenes.length - 1 ? round2(total - per * (scenes.length - 1)) : per }));
    if (keep === original.scenes.length) {
      changes.push({
        area: "pacing",
        before: `${round2(sourceTotal)} s`,
        after: `${total} s`,
        why: `The longest ad made here is ${Math.max(2, maxAdSeconds)} s; every scene keeps its share of it.`,
      });
    }
  }
  d.scenes = scenes;
}

/** Hook: the first line must read at a glance. */
function fixHook(d: Draft): void {
  const { scenes, copy } = d;
  const first = scenes[0]!;
  const hookAsked = d.said(COMPLAINTS.hook);
  if (wordsIn(first.headline) <= HOOK_MAX_WORDS && !hookAsked) return;
  const shorter = shorterHook(first.headline, copy);
  const question = copy.benefits[0] ? painFromBenefit(copy.benefits[0]) : null;
  const next = wordsIn(first.headline) > HOOK_MAX_WORDS ? shorter : (question ?? shorter);
  if (!next || next === first.headline) return;
  d.changes.push({
    area: "hook",
    before: first.headline,
    after: next,
    why:
      wordsIn(first.headline) > HOOK_MAX_WORDS
        ? `The opening line had ${wordsIn(first.headline)} words; a hook must be read in the first two seconds, so it now has ${wordsIn(next)}.${d.because(COMPLAINTS.hook)}`
        : `A question that names the viewer's problem stops the scroll better than a statement.${d.because(COMPLAINTS.hook)}`,
  });
  scenes[0] = { ...first, headline: fitWords(next, HEADLINE_MAX) };
}

/** Text density: a scene holding more words than its time on screen allows loses its second line. */
function fixTextDensity(d: Draft): void {
  const textAsked = d.said(COMPLAINTS.text);
  d.scenes = d.scenes.map((scene, i, all) => {
    const tooMany =
      sceneWords(scene) / WORDS_PER_SECOND > scene.durationSec + 0.01 || wordsIn(scene.headline) + wordsIn(scene.body) > DENSE_WORDS;
    if (!scene.body || !(tooMany || textAsked)) return scene;
    const { body, ...rest } = scene;
    // A headline another scene also says (the product, typically) gives way to the body's point.
    const repeated = all.some((other, j) => j !== i && other.headline === scene.headline);
    const headline = fitWords((repeated && pointOf(body, d.product)) || scene.headline, HEADLINE_MAX);
    d.changes.push({
      area: "text-density",
      before: `${scene.headline} / ${body}`,
      after: headline,
      why: tooMany
        ? `${sceneWords(scene)} words in ${scene.durationSec} s cannot be read (about ${WORDS_PER_SECOND} words a second): one line per scene.${d.because(COMPLAINTS.text)}`
        : `Fewer words per scene, as asked.${d.because(COMPLAINTS.text)}`,
    });
    return { ...rest, headline };
  });
}

/** Call to action: the last scene asks for something. */
function fixCallToAction(d: Draft): void {
  const { scenes } = d;
  const lastIndex = scenes.length - 1;
  const last = scenes[lastIndex]!;
  if (last.cta) return;
  const moved = scenes.find((s) => s.cta)?.cta;
  const cta = moved ?? d.copy.cta;
  d.changes.push({
    area: "call-to-action",
    before: moved ? `${quote(moved)} in the middle of the ad` : null,
    after: `${quote(cta)} on the last scene`,
    why: `An ad that ends without asking for anything leaves the viewer with nothing to do.${d.because(COMPLAINTS.cta)}`,
  });
  scenes[lastIndex] = { ...last, cta };
}

/** Brand: named on screen, in its colours. */
function fixBrand(d: Draft): void {
  const { scenes, product, changes } = d;
  const lastIndex = scenes.length - 1;
  const named = scenes.some((s) => `${s.headline} ${s.body ?? ""}`.toLowerCase().includes(product.toLowerCase()));
  if (!named) {
    const closing = scenes[lastIndex]!;
    changes.push({
      area: "brand",
      before: closing.headline,
      after: product,
      why: `${product} was never named on screen: the closing scene now names it, so the viewer knows who is asking.${d.because(COMPLAINTS.brand)}`,
    });
    scenes[lastIndex] = { ...closing, headline: fitWords(product, HEADLINE_MAX) };
  }
  const { primary, accent } = d.original.brand;
  if (!scenes.some((s) => s.background === primary || s.background === accent)) {
    changes.push({
      area: "brand",
      before: scenes[0]!.background,
      after: primary,
      why: "No scene used the brand's colours; the opening scene now does.",
    });
    scenes[0] = { ...scenes[0]!, background: primary };
  }
}

/** Safe zones: a scene whose text leaves a platform's safe area gets a shorter headline and no second line. */
function fixSafeZones(d: Draft, formats: ReturnType<typeof formatsFor>): void {
  const midway = scoreStoryboard({ ...d.original, scenes: d.scenes }, formats, d.product);
  const outside = midway.checks.find((c) => c.id === "safe-zone" && c.points < c.max);
  if (!outside) return;
  d.scenes = d.scenes.map((scene) => {
    if (!outside.reason.includes(`${scene.id} in `)) return scene;
    const { body: _body, ...rest } = scene;
    const headline = fitWords(scene.headline, SAFE_HEADLINE);
    d.changes.push({
      area: "safe-zone",
      before: scene.body ? `${scene.headline} / ${scene.body}` : scene.headline,
      after: headline,
      why: "Its text ran into the area a platform covers with its buttons and captions.",
    });
    return { ...rest, headline };
  });
}

/** A source that passed every check still gets a variant worth testing: a question hook. */
function testQuestionHook(d: Draft): void {
  if (d.changes.length > 0) return;
  const opening = d.scenes[0]!;
  const question = d.copy.benefits[0] ? painFromBenefit(d.copy.benefits[0]) : `Ready for ${d.product}?`;
  const next = question !== opening.headline ? question : `Why ${d.product}?`;
  d.changes.push({
    area: "hook",
    before: opening.headline,
    after: next,
    why: "The ad passed every check; this variant tests a question that names the viewer's problem against its statement opening.",
  });
  d.scenes[0] = { ...opening, headline: fitWords(next, HEADLINE_MAX) };
}

/** The improved storyboard and the record of every change. */
export function optimizeAd({ source, request, brand, maxAdSeconds }: OptimizeInput): OptimizedDirection {
  const formats = formatsFor(request);
  const original = withoutStalePaths(source.storyboard);
  const product = original.brand.name;
  const sourceInput = (source.job.input ?? {}) as Partial<WorkflowRequest>;
  const copy = writeCopy({ concept: request.concept ?? sourceInput.concept ?? null, brand, page: null, type: source.job.type });
  const performance = performanceOf(source.job);
  const said = (pattern: RegExp) => performance.feedback.find((f) => pattern.test(f));
  const draft: Draft = {
    original,
    scenes: original.scenes.map((s) => ({ ...s })),
    changes: [],
    copy,
    product,
    said,
    because: (pattern) => {
      const line = said(pattern);
      return line ? ` You said: ${quote(line)}.` : "";
    },
  };
  const before = scoreStoryboard(original, formats, product);
  fixPacing(draft, maxAdSeconds);
  fixHook(draft);
  fixTextDensity(draft);
  fixCallToAction(draft);
  fixBrand(draft);
  fixSafeZones(draft, formats);
  testQuestionHook(draft);

  const scenes = draft.scenes;
  scenes[0] = { ...scenes[0]!, transition: "fade" };
  const storyboard: Storyboard = { ...original, scenes };
  const creativeScore: CreativeScore = scoreStoryboard(storyboard, formats, product);
  return {
    storyboard,
    framework: sourceInput.framework ?? "optimized",
    formats,
    creativeScore,
    optimization: {
      sourceProjectId: source.job.id,
      scoreBefore: before.score,
      scoreAfter: creativeScore.score,
      performance,
      changes: draft.changes,
    },
  };
}

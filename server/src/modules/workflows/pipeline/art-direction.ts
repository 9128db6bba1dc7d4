// The built-in art director: concept + brand profile + framework + seasonal + preset (+ what the
// product page says) → a storyboard of timed scenes with copy, in the brand's colours. Deterministic,
// so a retried job directs the same ad. A remote language model can replace it behind the same output.
import { PROBLEM_ROLES, styleFor } from "./ad-style.ts";
import { type AspectRatio, type BrandProfileInput, formatsFor, type WorkflowRequest } from "@adgen/schema";
import type { Scene, Storyboard, Transition } from "../../render/types.ts";
import { scoreStoryboard } from "./creative-score.ts";
import { type AdCopy, fitWords, writeCopy } from "./copy.ts";
import { cleanLine, questionFromBenefit } from "./copy-lines.ts";
import { asQuestion } from "./copy-grammar.ts";
import { type Hook, hookOrder, hooksOf, rankHooks } from "./hooks.ts";
import { factsShown } from "./facts.ts";
import { fitScene } from "./scene-fit.ts";
import { markScenes } from "./scene-marks.ts";
import type { ArtDirection, BeatNote, PageFacts } from "./step-types.ts";

/** What one scene says, or null when the copy has nothing true to say there (the scene is left out). */
export type Beat = { role: string; write(copy: Lines): { headline: string; body?: string; cta?: string } | null };

/** The copy with a cursor per kind, so no line is said twice in one ad. */
export class Lines {
  private readonly used = new Set<string>();
  /** A creator's post opens on its point of view, before its proof. */
  readonly hookFirst: boolean;
  constructor(
    readonly copy: AdCopy,
    private readonly hooks: readonly Hook[] = [],
  ) {
    this.hookFirst = hooks[0]?.kind === "pov";
  }

  /** The opening line, of the kind the type and framework want (hooks.ts), its source used up with it. */
  hook(): string | null {
    const hook = this.hooks.find((h) => !this.used.has(h.line) && !(h.from && this.used.has(h.from)));
    if (!hook) return null;
    this.used.add(hook.line);
    if (hook.from) this.used.add(hook.from);
    return hook.line;
  }

  private take(from: string[]): string | null {
    const line = from.find((l) => !this.used.has(l));
    if (!line) return null;
    this.used.add(line);
    return line;
  }
  benefit = () => this.take(this.copy.benefits);
  proof = () => this.take(this.copy.proofs);
  pain = () => this.take(this.copy.pains);
  offer = () => this.take(this.copy.offers);
  fact = () => this.take(this.copy.facts);
  /** What the problem costs the viewer: a second pain, else a line that says what is lost or wasted. */
  agitation = () => this.pain() ?? this.take([...this.copy.proofs, ...this.copy.benefits].filter((l) => AGITATES.test(l)));
  /** The quoted tagline, once. */
  tagline() {
    const tagline = this.copy.tagline;
    if (!tagline || this.used.has(tagline)) return null;
    this.used.add(tagline);
    return tagline;
  }
}

// Lines are tidied here and fitted to the screen by the renderer's metrics (scene-fit.ts), not by a count of characters.
/** A line that says what the problem costs: losing, wasting, missing, breaking. */
const AGITATES =
  /\b(lose|loses|losing|lost|cost|costs|costing|waste|wastes|wasted|miss|misses|missed|risk|fail|fails|drop|drops|leak|leaks|ruin|ruins|break|breaks|spill|spills|stale|soggy|lukewarm|every day|half)\b/i;

const H = (text: string) => cleanLine(text);
const B = (text: string | null | undefined) => (text ? cleanLine(text) : undefined);
/**
 * A scene's copy, or null without a headline. The body is asked for only when there is a headline, so a
 * scene left out does not use up a line another scene could say.
 */
export const scene = (headline: string | null | undefined, body?: () => string | null | undefined, cta?: string) => {
  if (!headline) return null;
  const said = body?.();
  // A supporting line that the headline already says ("For hot sleepers" under "…for hot sleepers?") is left out.
  const core = said
    ?.replace(/^(made )?for /i, "")
    .replace(/[.!?]+$/, "")
    .toLowerCase();
  const text = core && headline.toLowerCase().includes(core) ? null : said;
  return { headline: H(headline), ...(text ? { body: B(text) } : {}), ...(cta ? { cta } : {}) };
};

/**
 * The viewer's problem as a question, from the copy's first benefit or, without one, the concept's premise;
 * null when no grammatical question can be made of it.
 */
const problemOf = (l: Lines) => {
  const benefit = l.copy.benefits[0];
  const premise = l.copy.premise;
  return (benefit ? questionFromBenefit(benefit, l.copy.names) : null) ?? (premise ? asQuestion(premise, "pain", l.copy.names) : null);
};

/** A knowledge fact said outright, when the framework's beats did not say one. */
const FACT_BEAT: Beat = { role: "fact", write: (l) => scene(l.fact()) };

const action: Beat = { role: "action", write: (l) => scene(l.copy.product, undefined, l.copy.cta) };
const actionWithOffer: Beat = {
  role: "action",
  write: (l) => scene(l.copy.product, () => l.offer(), l.copy.cta),
};

const FRAMEWORK_BEATS: Record<string, Beat[]> = {
  aida: [
    { role: "attention", write: (l) => scene(l.hook() ?? l.copy.product, () => l.benefit()) },
    {
      role: "interest",
      write: (l) => (l.copy.audience ? scene(`Made for ${l.copy.audience}`, () => l.benefit()) : scene(l.benefit(), () => l.proof())),
    },
    { role: "desire", write: (l) => scene(l.proof() ?? l.benefit(), () => l.benefit()) },
    actionWithOffer,
  ],
  pas: [
    {
      role: "problem",
      write: (l) => scene(l.hook() ?? problemOf(l), () => (l.copy.audience ? `For ${l.copy.audience}` : null)),
    },
    { role: "agitate", write: (l) => scene(l.agitation(), () => l.proof()) },
    { role: "solution", write: (l) => scene(l.copy.introduction, () => l.tagline() ?? l.benefit()) },
    actionWithOffer,
  ],
  sb7: [
    {
      role: "hero",
      write: (l) => scene(l.copy.audience ? `For ${l.copy.audience}` : (l.hook() ?? l.copy.product), () => l.pain() ?? l.benefit()),
    },
    { role: "guide", write: (l) => scene(l.tagline() ?? l.benefit(), () => l.proof()) },
    {
      role: "plan",
      write: (l) => {
        const steps = [l.benefit(), l.benefit()].filter(Boolean) as string[];
        return steps.length ? scene(steps[0], () => steps[1]) : null;
      },
    },
    { role: "success", write: (l) => scene(l.copy.product, () => l.offer() ?? l.proof(), l.copy.cta) },
  ],
  cialdini: [
    {
      role: "social-proof",
      write: (l) => scene((l.hookFirst ? l.hook() : null) ?? l.proof() ?? l.hook() ?? l.copy.product, () => l.proof() ?? l.benefit()),
    },
    { role: "authority", write: (l) => scene(l.tagline() ?? l.benefit(), () => l.proof()) },
    { role: "scarcity", write: (l) => scene(l.offer(), () => l.benefit()) },
    action,
  ],
  uvp: [
    { role: "value", write: (l) => scene(l.hook() ?? l.benefit() ?? l.copy.product, () => l.benefit()) },
    { role: "proof", write: (l) => scene(l.proof(), () => l.benefit()) },
    { role: "difference", write: (l) => scene(l.benefit(), () => (l.copy.audience ? `Made for ${l.copy.audience}` : null)) },
    actionWithOffer,
  ],
  bant: [
    { role: "need", write: (l) => scene(l.hook() ?? problemOf(l), () => l.benefit()) },
    { role: "budget", write: (l) => scene(l.offer(), () => l.proof()) },
    { role: "timeline", write: (l) => scene(l.tagline() ?? l.benefit(), () => l.proof()) },
    action,
  ],
};

/** Types whose viewer hears the headlines and reads captions rather than the scenes' bodies. */
const NARRATED = new Set(["avatar", "influencer"]);

const DEFAULT_FRAMEWORK: Record<string, string> = {
  cinematic: "aida",
  avatar: "sb7",
  factory: "aida",
  clone: "aida",
  influencer: "cialdini",
  brand: "sb7",
  staticad: "uvp",
  painpoint: "pas",
  "ad-optimizer": "aida",
  "local-audit": "bant",
};

const PRESET_TRANSITIONS: Record<string, Transition[]> = {
  bold: ["wipe", "slide", "wipe", "slide"],
  minimal: ["fade", "fade", "fade", "fade"],
  luxury: ["fade", "fade", "fade", "fade"],
  playful: ["slide", "slide", "wipe", "slide"],
  documentary: ["fade", "none", "fade", "none"],
};

const SEASONAL = {
  ramadan: { greeting: "Ramadan Kareem", accent: "#c9a227" },
  eid: { greeting: "Eid Mubarak", accent: "#2e9e6b" },
} as const;

const DEFAULT_COLORS = { primary: "#1d3557", secondary: "#457b9d", accent: "#e63946" };

function luminance(hex: string): number {
  const n = Number.parseInt(hex.slice(1), 16);
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
}

export function normalizeHex(value: string | undefined | null): string | null {
  if (!value) return null;
  const v = value.trim().replace(/^#/, "");
  if (/^[0-9a-f]{6}$/i.test(v)) return `#${v.toLowerCase()}`;
  if (/^[0-9a-f]{3}$/i.test(v))
    return `#${[...v]
      .map((c) => c + c)
      .join("")
      .toLowerCase()}`;
  return null;
}

export interface ArtDirectionInput {
  request: WorkflowRequest;
  brand: (BrandProfileInput & { id: string }) | null;
  page: PageFacts | null;
  maxAdSeconds: number;
  /** Sentences from the knowledge base that match the brief (modules/knowledge/retrieve.ts). */
  knowledge?: string[];
  /** The beats to write, in place of the framework's (an inspiration ad follows its reference's). */
  beats?: readonly Beat[];
}

export function directAd({ request, brand, page, maxAdSeconds, knowledge, beats: given }: ArtDirectionInput): ArtDirection {
  const framework = request.framework ?? DEFAULT_FRAMEWORK[request.type] ?? "aida";
  const concept = request.concept?.trim() || null;
  const copy = writeCopy({
    concept,
    brand,
    page,
    type: request.type,
    ...(request.brief ? { brief: request.brief } : {}),
    ...(knowledge ? { knowledge } : {}),
  });
  const product = copy.product;

  const pageColors = page?.colors ?? [];
  const primary = normalizeHex(brand?.colors?.primary) ?? normalizeHex(pageColors[0]) ?? DEFAULT_COLORS.primary;
  const secondary = normalizeHex(brand?.colors?.secondary) ?? normalizeHex(pageColors[1]) ?? DEFAULT_COLORS.secondary;
  const seasonal = request.seasonal ? SEASONAL[request.seasonal] : null;
  const accent = seasonal?.accent ?? normalizeHex(brand?.colors?.accent) ?? normalizeHex(pageColors[2]) ?? DEFAULT_COLORS.accent;
  const text = (bg: string) => (luminance(bg) > 0.45 ? "#111111" : "#ffffff");

  const beats = given ?? FRAMEWORK_BEATS[framework] ?? FRAMEWORK_BEATS.aida!;
  const transitions = PRESET_TRANSITIONS[request.adPreset ?? "minimal"] ?? PRESET_TRANSITIONS.minimal!;
  // Each beat writes its scene from the copy; a beat with nothing true to say is left out (the first and
  // the call to action always have something: the product and its CTA).
  const hooks = rankHooks(hooksOf(copy), hookOrder(request.type, framework));
  const formats = formatsFor(request);
  const backgroundText = text(primary);
  const brandStyle = { name: product, primary, secondary, accent, text: backgroundText };
  const context = { seasonal, formats, brandStyle, maxAdSeconds, transitions };
  // Each scene's role, key word and badges (a rating, a price, an offer, a fact), read from what the brief,
  // page and knowledge base say.
  const marks = {
    source: [
      concept,
      ...Object.values(request.brief ?? {}).flat(),
      brand?.productDescription,
      brand?.brandValues,
      brand?.targetAudience,
      page?.title,
      page?.description,
      ...(knowledge ?? []),
    ]
      .filter((t): t is string => typeof t === "string")
      .join(" \n "),
    names: copy.names,
    proofs: copy.proofs,
    offers: copy.offers,
    facts: copy.facts,
    narrated: NARRATED.has(request.type),
  };
  const direct = (written: readonly Beat[]) => {
    const fitted = fitBeats(written, new Lines(copy, hooks), context);
    const roles = fitted.scenes.map((s) => s.id.replace(/^scene-\d+-/, ""));
    return { scenes: markScenes(fitted.scenes, roles, marks), beats: fitted.beats };
  };
  let { scenes, beats: beatNotes } = direct(beats);
  // A fact of the knowledge base the framework's beats left unsaid gets a scene of its own before the close,
  // as a headline: the line every type shows and every narration speaks.
  // A narrated ad's badge shows a fact, but the voice should say one too: there only the spoken lines count here.
  const said = (list: Scene[]) => ({ brand: brandStyle, scenes: list.map(({ stickers: _s, ...rest }) => rest) }) as Storyboard;
  if (copy.facts.length && !factsShown(said(scenes), copy.facts, request.type).length) {
    ({ scenes, beats: beatNotes } = direct([...beats.slice(0, -1), FACT_BEAT, ...beats.slice(-1)]));
  }
  const storyboard: ArtDirection["storyboard"] = {
    // The raw concept may be direction ("Slow push-ins on…"): the title is a line the ad may say.
    title: fitWords(copy.tagline ?? copy.premise ?? product, 60),
    brand: brandStyle,
    scenes,
    beats: beatNotes,
    style: styleFor(request.type),
  };
  return { framework, formats, storyboard, hooks, creativeScore: scoreStoryboard(storyboard, formats, product) };
}

interface FitContext {
  seasonal: { greeting: string } | null;
  formats: AspectRatio[];
  brandStyle: Storyboard["brand"];
  maxAdSeconds: number;
  transitions: Transition[];
}

/**
 * Writes each beat, fits its lines to the renderer's boxes at a readable size (shortened only where a
 * clause ends) and times the scenes. A beat with nothing true to say, or whose line cannot fit, is left out
 * and noted; the closing scene falls back to the product's name. A seasonal greeting is a scene of its own,
 * never a prefix that pushes the headline out of its box.
 */
function fitBeats(beats: readonly Beat[], lines: Lines, ctx: FitContext): { scenes: Scene[]; beats: BeatNote[] } {
  const { primary, secondary, accent } = ctx.brandStyle;
  const notes: BeatNote[] = [];
  const written: { role: string; copy: NonNullable<ReturnType<Beat["write"]>> }[] = [];
  if (ctx.seasonal) written.push({ role: "greeting", copy: { headline: ctx.seasonal.greeting } });
  for (const beat of beats) {
    const line = beat.write(lines);
    if (line) written.push({ role: beat.role, copy: line });
    else notes.push({ role: beat.role, written: false, reason: "nothing in the brief, brand or knowledge says this" });
  }
  const fitted: { role: string; scene: Scene }[] = [];
  for (const [i, { role, copy: line }] of written.entries()) {
    const draft: Scene = {
      id: role,
      durationSec: 1,
      headline: line.headline,
      // A line that only repeats the headline is left out.
      ...(line.body && line.body !== line.headline ? { body: line.body } : {}),
      ...(line.cta ? { cta: line.cta } : {}),
      background: primary,
      accent,
      transition: "fade",
    };
    const closing = i === written.length - 1;
    const scene =
      fitScene(draft, ctx.brandStyle, ctx.formats) ??
      (closing ? fitScene({ ...draft, headline: ctx.brandStyle.name }, ctx.brandStyle, ctx.formats) : null);
    if (scene) fitted.push({ role, scene });
    else notes.push({ role, written: false, reason: "its line does not fit the screen at a readable size" });
  }
  const total = Math.max(2, ctx.maxAdSeconds);
  const per = Math.round((total / Math.max(1, fitted.length)) * 100) / 100;
  const scenes = fitted.map(({ role, scene }, i): Scene => {
    const background = [primary, secondary, primary, accent][i % 4] ?? primary;
    const isLast = i === fitted.length - 1;
    return {
      ...scene,
      id: `scene-${i + 1}-${role}`,
      durationSec: isLast ? Math.round((total - per * (fitted.length - 1)) * 100) / 100 : per,
      background,
      accent: background === accent ? primary : accent,
      transition: i === 0 ? "fade" : (ctx.transitions[i % ctx.transitions.length] ?? "fade"),
      tone: PROBLEM_ROLES.has(role) ? "problem" : "solution",
    };
  });
  const said = new Set(fitted.map((f) => f.role));
  return {
    scenes,
    beats: beats.map((b) => notes.find((n) => n.role === b.role) ?? { role: b.role, written: said.has(b.role) }),
  };
}

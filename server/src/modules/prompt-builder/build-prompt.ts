// The prompt builder's rule (SPEC 4.6, zero-token): structured fields in, a prompt for each provider
// family out, with a 0–100 score, its breakdown and concrete suggestions. Pure and deterministic: no
// model, no network, no clock, no randomness, so the same input always gives the same answer.
//
// `buildPrompt(builder, params)` is the function the workflow pipelines call to write their provider
// prompts; the `promptBuilder.build` operation is a thin wrapper around it.
import {
  type BuiltPrompt,
  CINEMATOGRAPHY_STYLE_IDS,
  PROMPT_BUILDERS,
  PROMPT_FAMILIES,
  PROMPT_NEGATIVE_MAX_ITEMS,
  PROMPT_TEXT_MAX,
  type CinematographyStyle,
  type CinematographyStyleId,
  type PromptBuilderId,
  type PromptFamily,
  type PromptParams,
  type PromptParts,
  type PromptScoreItem,
  type PromptSchema,
} from "@adgen/schema";
import {
  BUILDERS,
  CAMERA,
  CAMERA_ALIASES,
  CRITERIA,
  FAMILY_OF,
  LEXICON,
  LIGHTING_CONFLICTS,
  PROMPT_BUILDER_VERSION,
  STYLES,
} from "./vocabulary.ts";

/** What `GET /api/prompt-builder` answers. */
export function getPromptSchema(): PromptSchema {
  return {
    version: PROMPT_BUILDER_VERSION,
    builders: [...PROMPT_BUILDERS],
    families: [...PROMPT_FAMILIES],
    schemas: BUILDERS,
    camera: CAMERA,
    cinematographyStyles: STYLES,
    lexicon: LEXICON,
    scoring: { max: 100, criteria: CRITERIA },
    limits: { textMaxLength: PROMPT_TEXT_MAX, negativeMaxItems: PROMPT_NEGATIVE_MAX_ITEMS },
  };
}

// ---------------------------------------------------------------------------------------------
// Normalising
// ---------------------------------------------------------------------------------------------

/** Whitespace collapsed, trimmed, trailing separators dropped; empty → null. */
function clean(text: string | undefined | null): string | null {
  if (typeof text !== "string") return null;
  const value = text
    .normalize("NFC")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[\s,;.]+$/, "")
    .replace(/^[\s,;.]+/, "");
  return value.length > 0 ? value : null;
}

/** Comma- or semicolon-separated terms, cleaned, without case-insensitive duplicates, in order. */
function terms(values: readonly (string | null | undefined)[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const value of values) {
    for (const part of (value ?? "").split(/[,;\n]/)) {
      const term = clean(part);
      if (!term || seen.has(term.toLowerCase())) continue;
      seen.add(term.toLowerCase());
      out.push(term);
    }
  }
  return out;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const phrase = (text: string) => new RegExp(`(?<![a-z0-9])${escapeRegExp(text.toLowerCase())}(?![a-z0-9])`);
const has = (haystack: string, needle: string) => phrase(needle).test(haystack);

const STOP_WORDS = new Set(["a", "an", "the", "of", "with", "and", "in", "on", "at", "to", "for", "by", "from", "into", "its", "is"]);
const VAGUE_WORDS = [
  "thing",
  "things",
  "something",
  "stuff",
  "nice",
  "good",
  "cool",
  "beautiful",
  "awesome",
  "amazing",
  "stunning",
  "great",
];

function contentWords(text: string | null): string[] {
  if (!text) return [];
  return (text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? []).filter((w) => !STOP_WORDS.has(w));
}

// ---------------------------------------------------------------------------------------------
// Recognising styles, camera and lexicon terms
// ---------------------------------------------------------------------------------------------

function matchStyle(style: string | null): CinematographyStyle | null {
  if (!style) return null;
  const lower = style.toLowerCase();
  for (const id of CINEMATOGRAPHY_STYLE_IDS) {
    const s = STYLES[id];
    if (lower === id || lower === s.name.toLowerCase() || lower === id.replace(/-/g, " ")) return s;
  }
  for (const id of CINEMATOGRAPHY_STYLE_IDS) {
    const s = STYLES[id];
    if (has(lower, s.name.toLowerCase()) || has(lower, id.replace(/-/g, " ")) || s.keywords.some((k) => has(lower, k))) return s;
  }
  return null;
}

type CameraCategory = "shotSize" | "angle" | "movement";

/** Every phrase that names a shot size, angle or movement, longest first, so "medium close-up" wins over "close-up". */
const CAMERA_PHRASES: { phrase: string; id: string; category: CameraCategory }[] = (() => {
  const categoryOf = new Map<string, CameraCategory>();
  for (const s of CAMERA.shotSizes) categoryOf.set(s.id, "shotSize");
  for (const a of CAMERA.angles) categoryOf.set(a.id, "angle");
  for (const m of CAMERA.movements) categoryOf.set(m.id, "movement");
  const list = [...categoryOf.entries()].map(([id, category]) => ({ phrase: id, id, category }));
  for (const [alias, id] of Object.entries(CAMERA_ALIASES)) {
    const category = categoryOf.get(id);
    if (category) list.push({ phrase: alias, id, category });
  }
  return list.sort((a, b) => b.phrase.length - a.phrase.length || a.phrase.localeCompare(b.phrase));
})();

function parseCamera(text: string | null): PromptParts["camera"] {
  const parts: PromptParts["camera"] = { text, lens: null, shotSize: null, angle: null, movement: null, recognised: false };
  if (!text) return parts;
  let rest = ` ${text.toLowerCase()} `;
  const lens = rest.match(/(?<![a-z0-9])(\d{1,3})\s?mm(?![a-z0-9])/);
  if (lens) {
    const mm = Number(lens[1]);
    if (mm >= 8 && mm <= 800) parts.lens = `${mm}mm`;
    rest = rest.replace(lens[0], " ");
  } else if (/\b(smartphone|phone|iphone|front camera|selfie camera)\b/.test(rest)) {
    parts.lens = "smartphone camera";
  }
  for (const entry of CAMERA_PHRASES) {
    const re = phrase(entry.phrase);
    if (!re.test(rest)) continue;
    const key = entry.category === "shotSize" ? "shotSize" : entry.category;
    if (parts[key] === null) parts[key] = entry.id;
    rest = rest.replace(re, " ");
  }
  parts.recognised = Boolean(parts.lens || parts.shotSize || parts.angle || parts.movement);
  return parts;
}

/** The lexicon terms of every family, lower-cased, for one kind of word. */
function known(kind: "quality" | "lighting" | "negative"): string[] {
  const all = new Set<string>();
  for (const family of PROMPT_FAMILIES) for (const term of LEXICON[family][kind]) all.add(term.toLowerCase());
  return [...all].sort((a, b) => b.length - a.length);
}
const KNOWN_QUALITY = known("quality");
const KNOWN_LIGHTING = known("lighting");
const KNOWN_NEGATIVE = known("negative");

/** Known lighting terms found in the text (longest first, each found once). */
function lightingTerms(text: string | null): string[] {
  if (!text) return [];
  let rest = text.toLowerCase();
  const found: string[] = [];
  for (const term of KNOWN_LIGHTING) {
    if (has(rest, term)) {
      found.push(term);
      rest = rest.replace(phrase(term), " ");
    }
  }
  return found;
}

const isKnown = (list: string[], term: string) => {
  const lower = term.toLowerCase();
  return list.some((k) => lower === k || has(lower, k));
};

// ---------------------------------------------------------------------------------------------
// Building
// ---------------------------------------------------------------------------------------------

const BUILDER_LABEL: Record<PromptBuilderId, string> = { image: "image", "video-cinematic": "cinematic video", "video-ugc": "UGC video" };

function joinList(items: string[], last = "or"): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} ${last} ${items.at(-1)}`;
}

/** `A matte mug` → `a matte mug` inside a sentence, unless it starts with an acronym or a proper name's capital. */
const inSentence = (text: string) =>
  /^[A-Z][a-z]/.test(text) && /^(A|An|The)\b/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
const capitalise = (text: string) => (text ? text[0]!.toUpperCase() + text.slice(1) : text);

/** The camera as the prompt states it: the text as given, or what the style implies. */
function cameraText(camera: PromptParts["camera"], style: CinematographyStyle | null): string | null {
  if (camera.text) return camera.lens && /^\d+mm$/.test(camera.text) ? `${camera.text} lens` : camera.text;
  return style ? style.camera : null;
}

/**
 * Builds the structured prompt for `builder` from `params` (validated with `PromptParams`, or any object
 * of the same shape). Deterministic: the same arguments always give the same answer.
 */
export function buildPrompt(builder: PromptBuilderId, params: PromptParams): BuiltPrompt {
  const spec = BUILDERS[builder];
  const family = FAMILY_OF[builder];
  const video = spec.medium === "video";

  const subject = clean(params.subject) ?? "";
  const context = clean(params.context);
  const styleText = clean(params.style);
  const style = matchStyle(styleText);
  const givenQuality = terms([params.quality]);
  const quality = givenQuality.length > 0 ? givenQuality : [...spec.defaultQuality];
  const lighting = clean(params.lighting);
  const camera = parseCamera(clean(params.camera));
  const givenNegative = terms(params.negative ?? []);
  const negative = terms([...givenNegative, ...spec.defaultNegative]);

  const parts: PromptParts = {
    subject,
    context,
    style: styleText,
    styleId: (style?.id ?? null) as CinematographyStyleId | null,
    quality,
    lighting,
    camera,
    negative: givenNegative,
  };

  const lightingUsed = lighting ?? style?.lighting ?? null;
  const cameraUsed = cameraText(camera, style);
  const styleTags = style ? [`${style.name} style`, style.palette, `${style.mood} mood`] : styleText ? [styleText] : [];

  const formatted: Record<PromptFamily, string> = {
    diffusion: [
      builder === "video-ugc" ? "smartphone footage still, UGC style" : null,
      subject,
      context,
      ...styleTags,
      lightingUsed,
      cameraUsed,
      ...quality,
    ]
      .filter((part): part is string => Boolean(part))
      .join(", "),
    video: [
      `${capitalise(builder === "video-ugc" ? "authentic vertical smartphone video" : video ? "cinematic shot" : "still frame")} of ${inSentence(subject)}${context ? `, ${context}` : ""}.`,
      cameraUsed ? `Camera: ${cameraUsed}.` : null,
      lightingUsed ? `Lighting: ${lightingUsed}.` : null,
      style ? `Style: ${style.name}, ${style.palette}.` : styleText ? `Style: ${styleText}.` : null,
      style ? `Mood: ${style.mood}.` : null,
      `${capitalise(quality.join(", "))}.`,
    ]
      .filter((part): part is string => Boolean(part))
      .join(" "),
    natural: [
      `${video ? (builder === "video-ugc" ? "A casual smartphone video" : "A cinematic video") : "An image"} of ${inSentence(subject)}${context ? ` ${context}` : ""}`,
      style ? `in the ${style.name} style (${style.palette}; ${style.mood})` : styleText ? `in a ${styleText} style` : null,
      lightingUsed ? `lit by ${lightingUsed}` : null,
      cameraUsed ? `shot with ${cameraUsed}` : null,
    ]
      .filter((part): part is string => Boolean(part))
      .join(", ")
      .concat(`. Make it ${quality.join(", ")}.`, negative.length > 0 ? ` Avoid ${joinList(negative, "and")}.` : ""),
  };

  const { breakdown, suggestions } = score(builder, parts, style, givenQuality);
  const total = breakdown.reduce((sum, item) => sum + item.points, 0);
  return {
    version: PROMPT_BUILDER_VERSION,
    builder,
    family,
    positive: formatted[family],
    negative: negative.join(", "),
    formatted,
    parts,
    score: total,
    grade: total >= 85 ? "excellent" : total >= 65 ? "good" : total >= 40 ? "fair" : "weak",
    breakdown,
    suggestions,
  };
}

// ---------------------------------------------------------------------------------------------
// Scoring
// ---------------------------------------------------------------------------------------------

/** What each criterion's scorer reads, and where it puts its points and suggestions. */
interface Scoring {
  builder: PromptBuilderId;
  parts: PromptParts;
  style: CinematographyStyle | null;
  givenQuality: string[];
  spec: (typeof BUILDERS)[PromptBuilderId];
  family: (typeof FAMILY_OF)[PromptBuilderId];
  video: boolean;
  lexicon: (typeof LEXICON)[keyof typeof LEXICON];
  item: (criterion: PromptScoreItem["criterion"], points: number, note: string) => void;
  suggest: (gain: number, text: string) => void;
}

function score(builder: PromptBuilderId, parts: PromptParts, style: CinematographyStyle | null, givenQuality: string[]) {
  const spec = BUILDERS[builder];
  const family = FAMILY_OF[builder];
  const video = spec.medium === "video";
  const lexicon = LEXICON[family];
  const max = Object.fromEntries(CRITERIA.map((c) => [c.id, c.max])) as Record<string, number>;
  const label = Object.fromEntries(CRITERIA.map((c) => [c.id, c.label])) as Record<string, string>;
  const items: PromptScoreItem[] = [];
  const suggestions: { gain: number; text: string }[] = [];
  const suggest = (gain: number, text: string) => suggestions.push({ gain, text });
  const item = (criterion: PromptScoreItem["criterion"], points: number, note: string) =>
    items.push({
      criterion,
      label: label[criterion]!,
      points: Math.max(0, Math.min(max[criterion]!, Math.round(points))),
      max: max[criterion]!,
      note,
    });
  const scoring: Scoring = { builder, parts, style, givenQuality, spec, family, video, lexicon, item, suggest };
  // Each criterion in the order of the breakdown.
  scoreSubjectClarity(scoring);
  scoreSpecificity(scoring);
  scoreLighting(scoring);
  scoreCamera(scoring);
  scoreStyleCoherence(scoring);
  scoreNegatives(scoring);

  // Biggest gain first; ties keep their order (Array.prototype.sort is stable).
  const ordered = suggestions.sort((a, b) => b.gain - a.gain).map((s) => s.text);
  return { breakdown: items, suggestions: ordered };
}

/** Subject clarity: a concrete subject with a few details. */
function scoreSubjectClarity({ builder, parts, item, suggest, spec }: Scoring): void {
  const subjectField = spec.fields.find((f) => f.name === "subject")!;
  const words = contentWords(parts.subject);
  const ladder = [0, 8, 11, 14, 16, 18, 18];
  let points = words.length >= 7 ? 20 : ladder[words.length]!;
  const vague = VAGUE_WORDS.filter((w) => words.includes(w));
  points -= vague.length * 3;
  if (words.length > 0) points = Math.max(points, 4);
  item(
    "subjectClarity",
    points,
    `${words.length} descriptive word${words.length === 1 ? "" : "s"}${vague.length ? `; vague: ${vague.join(", ")}` : ""}`,
  );
  if (words.length < 4) {
    suggest(20 - points, `Describe the subject in more detail (material, colour, action), e.g. "${subjectField.placeholder}"`);
  }
  if (vague.length)
    suggest(
      vague.length * 3,
      `Replace vague words (${vague.map((w) => `"${w}"`).join(", ")}) with concrete details the ${BUILDER_LABEL[builder]} can show`,
    );
}

/** Specificity: a setting, and quality terms the family knows. */
function scoreSpecificity({ parts, givenQuality, family, lexicon, item, suggest, spec }: Scoring): void {
  const contextField = spec.fields.find((f) => f.name === "context")!;
  const contextWords = contentWords(parts.context).length;
  const contextPoints = contextWords === 0 ? 0 : contextWords < 3 ? 4 : 7;
  const knownQuality = givenQuality.filter((q) => isKnown(KNOWN_QUALITY, q));
  const unknownQuality = givenQuality.filter((q) => !isKnown(KNOWN_QUALITY, q));
  const qualityPoints = Math.min(8, knownQuality.length * 4 + unknownQuality.length);
  item(
    "specificity",
    contextPoints + qualityPoints,
    `${contextWords ? "setting given" : "no setting"}; ${knownQuality.length} known quality term${knownQuality.length === 1 ? "" : "s"}${unknownQuality.length ? `, ${unknownQuality.length} unrecognised` : ""}`,
  );
  if (contextWords === 0) suggest(7, `Add a context or setting, such as "${contextField.placeholder}"`);
  else if (contextWords < 3) suggest(3, "Say more about the setting (place, time of day, what happens around the subject)");
  const freshQuality = lexicon.quality.filter((q) => !givenQuality.some((g) => g.toLowerCase() === q));
  if (givenQuality.length === 0) suggest(8, `Add quality terms, such as ${joinList(freshQuality.slice(0, 2))}`);
  else if (unknownQuality.length > 0)
    suggest(
      3 * unknownQuality.length,
      `Quality term${unknownQuality.length > 1 ? "s" : ""} ${unknownQuality.map((q) => `"${q}"`).join(", ")} ${unknownQuality.length > 1 ? "are" : "is"} not in the ${family} lexicon (kept, but earn${unknownQuality.length > 1 ? "" : "s"} less); try ${joinList(freshQuality.slice(0, 2))}`,
    );
  else if (knownQuality.length === 1) suggest(4, `Add a second quality term, such as ${freshQuality[0]}`);
}

/** Lighting: named terms. */
function scoreLighting({ parts, style, lexicon, item, suggest }: Scoring): void {
  const found = lightingTerms(parts.lighting);
  let points: number;
  let note: string;
  if (!parts.lighting) {
    points = style ? 5 : 0;
    note = style ? `none given; the ${style.name} style's lighting is used` : "none given";
    suggest(
      15 - points,
      style
        ? `Name the lighting yourself; the ${style.name} style suggests "${style.lighting}"`
        : `Describe the lighting, such as ${joinList(lexicon.lighting.filter((l) => l !== "neon").slice(0, 2))}`,
    );
  } else if (found.length === 0) {
    points = 5;
    note = "no known lighting term (kept, but earns less)";
    suggest(10, `Lighting "${parts.lighting}" uses no known lighting term; add one such as ${joinList(lexicon.lighting.slice(0, 3))}`);
  } else if (found.length === 1) {
    points = 11;
    note = `1 lighting term: ${found[0]}`;
    const extra = lexicon.lighting.find((l) => l === "rim light" && !found.includes(l)) ?? lexicon.lighting.find((l) => !found.includes(l));
    suggest(4, `Add a second lighting term, such as ${extra}, to shape the subject`);
  } else {
    points = 15;
    note = `${found.length} lighting terms: ${found.join(", ")}`;
  }
  item("lighting", points, note);
}

/** Camera: lens, shot size, and angle (image) or movement (video). */
function scoreCamera({ builder, parts, style, video, item, suggest }: Scoring): void {
  const c = parts.camera;
  const weights = video ? { lens: 5, shotSize: 5, angle: 4, movement: 6 } : { lens: 7, shotSize: 7, angle: 6, movement: 0 };
  let points = 0;
  let note: string;
  const lensExample =
    builder === "image"
      ? "85mm, for a soft background"
      : builder === "video-ugc"
        ? "24mm, for a natural smartphone field of view"
        : "35mm, for a cinematic look";
  if (!c.text) {
    points = style ? 6 : 0;
    note = style ? `none given; the ${style.name} style's camera is used` : "none given";
  } else if (!c.recognised) {
    points = 4;
    note = "no known lens, shot size, angle or movement (kept, but earns less)";
    suggest(
      16,
      `Camera "${c.text}" names no known lens, shot size, angle or movement; use terms such as 35mm, close-up, ${video ? "slow dolly in" : "low angle"}`,
    );
  } else {
    if (c.lens) points += weights.lens;
    if (c.shotSize) points += weights.shotSize;
    if (c.angle) points += weights.angle;
    if (video && c.movement) points += weights.movement;
    if (!video && c.movement) points += 2; // a movement says something about framing even in a still
    const named = [c.lens, c.shotSize, c.angle, c.movement].filter(Boolean);
    note = named.join(", ");
  }
  if (c.recognised || !c.text) {
    if (!c.lens) suggest(weights.lens, `Add a lens, such as ${lensExample}`);
    if (!c.shotSize) suggest(weights.shotSize, "Name a shot size, such as close-up or wide shot, to frame the subject");
    if (video && !c.movement)
      suggest(
        weights.movement,
        `Add a camera movement, such as ${builder === "video-ugc" ? "handheld or gimbal" : "slow dolly in or tracking shot"}, to give the shot motion`,
      );
    if (!c.angle) suggest(weights.angle, "Add a camera angle, such as low angle or eye level");
  }
  item("camera", points, note);
}

/** Style coherence: a named style that suits the builder and agrees with the lighting. */
function scoreStyleCoherence({ builder, parts, style, spec, item, suggest }: Scoring): void {
  const recommended = spec.recommendedStyles.map((id) => STYLES[id as CinematographyStyleId].name);
  const combined = [parts.lighting, parts.style, style?.lighting, style?.palette, style?.mood].filter(Boolean).join(" ").toLowerCase();
  const conflict = LIGHTING_CONFLICTS.map(([a, b]) => [combined.match(a)?.[0], combined.match(b)?.[0]] as const).find(([a, b]) => a && b);
  let points = 0;
  let note: string;
  if (!parts.style) {
    note = "no style";
    suggest(15, `Pick a style, such as ${joinList(recommended.slice(0, 3))}, for a coherent look`);
  } else {
    const suits = style ? style.builders.includes(builder) : false;
    points = (style ? 8 : 4) + (suits ? 4 : 0) + (conflict ? 0 : 3);
    note = style ? `${style.name}${suits ? "" : `, not suited to ${BUILDER_LABEL[builder]}`}` : "unrecognised style (kept, but earns less)";
    if (!style)
      suggest(
        8,
        `Style "${parts.style}" is not a named style (kept, but earns less); pick one such as ${joinList(recommended.slice(0, 3))}`,
      );
    else if (!suits) suggest(4, `${style.name} is not made for ${BUILDER_LABEL[builder]}; try ${joinList(recommended.slice(0, 3))}`);
  }
  if (conflict) {
    note += `; "${conflict[0]}" conflicts with "${conflict[1]}"`;
    if (parts.style) suggest(3, `"${conflict[0]}" conflicts with "${conflict[1]}"; keep one so the lighting and style agree`);
  }
  item("styleCoherence", points, note);
}

/** Negatives: defects to avoid. */
function scoreNegatives({ parts, lexicon, item, suggest }: Scoring): void {
  const knownCount = parts.negative.filter((n) => isKnown(KNOWN_NEGATIVE, n)).length;
  const unknownCount = parts.negative.length - knownCount;
  const points = knownCount * 5 + unknownCount * 3;
  item("negatives", points, parts.negative.length ? `${parts.negative.length} given (${knownCount} known)` : "none given; defaults used");
  const fresh = lexicon.negative.filter((n) => !parts.negative.some((g) => g.toLowerCase() === n));
  if (parts.negative.length === 0) suggest(15, `Add negative terms, such as ${joinList(fresh.slice(0, 3))}, to keep common defects out`);
  else if (points < 15) suggest(15 - Math.min(15, points), `Add more negative terms, such as ${joinList(fresh.slice(0, 2), "and")}`);
}

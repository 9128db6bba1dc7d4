// The built-in art director: concept + brand profile + framework + seasonal + preset (+ what the
// product page says) → a storyboard of timed scenes with copy, in the brand's colours. Deterministic,
// so a retried job directs the same ad. A remote language model can replace it behind the same output.
import { type AspectRatio, type BrandProfileInput, formatsFor, type WorkflowRequest } from "@adgen/schema";
import type { Scene, Storyboard, Transition } from "../../render/types.ts";
import type { PageFacts } from "./steps.ts";

type Beat = { role: string; headline: (f: Facts) => string; body?: (f: Facts) => string; cta?: (f: Facts) => string };

interface Facts {
  product: string;
  benefit: string;
  audience: string;
  pain: string;
  proof: string;
  cta: string;
}

const FRAMEWORK_BEATS: Record<string, Beat[]> = {
  aida: [
    { role: "attention", headline: (f) => f.product, body: (f) => f.benefit },
    { role: "interest", headline: (f) => `Made for ${f.audience}`, body: (f) => f.proof },
    { role: "desire", headline: () => "Imagine the difference", body: (f) => f.benefit },
    { role: "action", headline: (f) => f.product, cta: (f) => f.cta },
  ],
  pas: [
    { role: "problem", headline: (f) => f.pain },
    { role: "agitate", headline: () => "It costs you every day", body: (f) => `${f.audience} deserve better.` },
    { role: "solution", headline: (f) => `Meet ${f.product}`, body: (f) => f.benefit },
    { role: "action", headline: (f) => f.product, cta: (f) => f.cta },
  ],
  sb7: [
    { role: "hero", headline: (f) => `For ${f.audience}`, body: (f) => f.pain },
    { role: "guide", headline: (f) => `${f.product} has your back`, body: (f) => f.proof },
    { role: "plan", headline: () => "1. Choose  2. Start  3. Enjoy" },
    { role: "success", headline: (f) => f.benefit, cta: (f) => f.cta },
  ],
  cialdini: [
    { role: "social-proof", headline: (f) => f.proof },
    { role: "authority", headline: (f) => `${f.product}: trusted by experts`, body: (f) => f.benefit },
    { role: "scarcity", headline: () => "Limited time offer", body: () => "Don't miss out" },
    { role: "action", headline: (f) => f.product, cta: (f) => f.cta },
  ],
  uvp: [
    { role: "value", headline: (f) => f.benefit },
    { role: "proof", headline: (f) => f.proof },
    { role: "difference", headline: (f) => `Only ${f.product} does it this way` },
    { role: "action", headline: (f) => f.product, cta: (f) => f.cta },
  ],
  bant: [
    { role: "need", headline: (f) => f.pain },
    { role: "budget", headline: () => "Worth every cent", body: (f) => f.benefit },
    { role: "timeline", headline: () => "Up and running today" },
    { role: "action", headline: (f) => f.product, cta: (f) => f.cta },
  ],
};

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

function firstSentence(text: string | null | undefined, max = 70): string | null {
  const clean = text?.replace(/\s+/g, " ").trim();
  if (!clean) return null;
  const sentence = clean.split(/(?<=[.!?])\s/)[0] ?? clean;
  return sentence.length > max ? `${sentence.slice(0, max - 1).trimEnd()}…` : sentence;
}

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
}

export interface ArtDirection {
  storyboard: Storyboard;
  framework: string;
  formats: AspectRatio[];
}

export function directAd({ request, brand, page, maxAdSeconds }: ArtDirectionInput): ArtDirection {
  const framework = request.framework ?? DEFAULT_FRAMEWORK[request.type] ?? "aida";
  const concept = request.concept?.trim() || null;
  const product =
    brand?.brandName ?? brand?.name ?? firstSentence(page?.title, 40) ?? firstSentence(concept, 40) ?? "Your next favourite thing";
  const benefitLine =
    [firstSentence(concept), firstSentence(page?.description), firstSentence(brand?.productDescription)].find(
      (line) => line && line !== product,
    ) ?? null;
  const facts: Facts = {
    product,
    benefit: benefitLine ?? "Better results, less effort",
    audience: firstSentence(brand?.targetAudience, 40) ?? "people like you",
    pain: firstSentence(brand?.productDescription, 60) ? "Still doing it the hard way?" : "Tired of settling for less?",
    proof: brand?.brandValues ? (firstSentence(brand.brandValues) ?? "Loved by thousands") : "Loved by thousands of customers",
    cta: request.type === "local-audit" ? "Book your free audit" : page?.url ? `Visit ${new URL(page.url).hostname}` : "Shop now",
  };

  const pageColors = page?.colors ?? [];
  const primary = normalizeHex(brand?.colors?.primary) ?? normalizeHex(pageColors[0]) ?? DEFAULT_COLORS.primary;
  const secondary = normalizeHex(brand?.colors?.secondary) ?? normalizeHex(pageColors[1]) ?? DEFAULT_COLORS.secondary;
  const seasonal = request.seasonal ? SEASONAL[request.seasonal] : null;
  const accent = seasonal?.accent ?? normalizeHex(brand?.colors?.accent) ?? normalizeHex(pageColors[2]) ?? DEFAULT_COLORS.accent;
  const text = (bg: string) => (luminance(bg) > 0.45 ? "#111111" : "#ffffff");

  const beats = FRAMEWORK_BEATS[framework] ?? FRAMEWORK_BEATS.aida!;
  const transitions = PRESET_TRANSITIONS[request.adPreset ?? "minimal"] ?? PRESET_TRANSITIONS.minimal!;
  const total = Math.max(2, maxAdSeconds);
  const per = Math.round((total / beats.length) * 100) / 100;
  const scenes: Scene[] = beats.map((beat, i) => {
    const background = [primary, secondary, primary, accent][i % 4] ?? primary;
    const headline = i === 0 && seasonal ? `${seasonal.greeting}: ${beat.headline(facts)}` : beat.headline(facts);
    const isLast = i === beats.length - 1;
    return {
      id: `scene-${i + 1}-${beat.role}`,
      durationSec: isLast ? Math.round((total - per * (beats.length - 1)) * 100) / 100 : per,
      headline,
      // A line that only repeats the headline is left out.
      ...(beat.body && beat.body(facts) !== headline ? { body: beat.body(facts) } : {}),
      ...(beat.cta ? { cta: beat.cta(facts) } : {}),
      background,
      accent: background === accent ? primary : accent,
      transition: i === 0 ? "fade" : (transitions[i % transitions.length] ?? "fade"),
    };
  });
  const backgroundText = text(primary);
  return {
    framework,
    formats: formatsFor(request),
    storyboard: {
      title: concept ? (firstSentence(concept, 60) ?? product) : `${product}: ${framework.toUpperCase()} ad`,
      brand: { name: product, primary, secondary, accent, text: backgroundText },
      scenes,
    },
  };
}

// Badges beside a scene's copy (render/types.ts Sticker), read from a line of the brief, the page or the
// knowledge base, never invented: a rating with its average (and its count when the line gives one), a
// price, an offer, a launch. Each badge carries the words of its line ("4.8 from 2,314 reviews", "From $29 a
// month", "50% off your first box"); a line with no such words gives no badge.
import type { Sticker } from "../../render/types.ts";

const upperFirst = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
const tidy = (text: string) =>
  text
    .replace(/\s+/g, " ")
    .replace(/[\s,;:.]+$/, "")
    .trim();

/** "4.8 from 2,314 reviews", "4.9 stars on Google", "rated 4.7/5 by 900 customers", "4.8★ (2,314 reviews)". */
const RATING =
  /\b([1-5](?:\.\d)?)(\s*(?:★|stars?\b|\/\s*5|out of 5(?!\s+\p{L}+s\b)))?(?:(?:\s+stars?)?(?:\s*\(\s*|\s+(?:from|across|in|on|by|based on|with)\s+)(?:over\s+|more than\s+)?(\d[\d,.]*k?)\s+(?:[\p{L}-]+\s+)?(?:reviews?|ratings?|customers|patients|clients|guests|members|parents|users)\)?)?/iu;
const RATING_CUE = /\b(rated|rating|stars?|reviews?|★|\/\s*5|out of 5)/i;

/** A rating sticker from a line that gives an average out of five, with its count when it has one. */
export function ratingSticker(line: string): Extract<Sticker, { kind: "rating" }> | null {
  if (!RATING_CUE.test(line)) return null;
  for (const match of line.matchAll(new RegExp(RATING.source, "giu"))) {
    const stars = Number(match[1]);
    const hasCount = !!match[3];
    // "4" alone is a number, not a rating: it needs a decimal, a star or a count of reviews beside it.
    const starred = /\.\d/.test(match[1]!) || !!match[2];
    if (!(stars >= 1 && stars <= 5) || !(starred || hasCount)) continue;
    // A figure of a range or a measure ("4.8 kg", "3 of 5 steps") is no rating.
    const after = line.slice((match.index ?? 0) + match[0].length);
    if (!hasCount && /^\s*(kg|g|mm|cm|m|l|ml|%|x|hours?|days?|min)/i.test(after)) continue;
    const count = hasCount ? parseCount(match[3]!) : null;
    return { kind: "rating", stars, ...(count ? { count } : {}), text: tidy(match[0]) };
  }
  return null;
}

const parseCount = (text: string): number | null => {
  const k = /k$/i.test(text.trim());
  const n = Number(text.replace(/[^\d.]/g, ""));
  if (!Number.isFinite(n) || n <= 0) return null;
  return Math.round(k ? n * 1000 : n);
};

/** "From $29 a month", "$48", "Plans from £2 a day" → "From £2 a day". */
const PRICE =
  /(?<![\w$€£])(?:(from|only|just)\s+)?([$€£]\s?\d[\d,]*(?:\.\d{2})?|\d[\d,]*(?:\.\d{2})?\s?(?:€|EUR|USD|GBP))(\s*(?:a|per|\/)\s*(?:day|week|month|year|mo|yr|night|person|box|class|session|hour|lesson|visit|wash|meal|bottle|case))?/i;

export function priceSticker(line: string): Sticker | null {
  const match = line.match(PRICE);
  if (!match) return null;
  // "Free shipping over $50" is a threshold, not a price; "0% finance" is an offer.
  if (/\b(over|above|orders? of)\s*$/i.test(line.slice(0, match.index))) return null;
  return { kind: "price", text: upperFirst(tidy(match[0])) };
}

/** Offers: a discount, something free, a trial, a guarantee; the phrase as written, up to its clause's end. */
const OFFERS = [
  /\b\d+\s?% off\b[^.,;!?]{0,24}/i,
  /\b(?:free|complimentary)\s+(?:[\p{L}\d-]+\s+){0,2}?(?:shipping|delivery|returns?|trial|consultation|check-up|checkup|assessment|quote|survey|class|session|lesson|sample|gift|month|week|installation|safety check)\b/iu,
  /\b(?:first|1st)\s+[\p{L}-]+\s+free\b/iu,
  /\b\d+[- ](?:day|night|week|month)\s+(?:free\s+)?(?:trial|guarantee|money-back guarantee|returns?)\b/i,
  /\bno\s+(?:joining|sign-up|signup|setup|set-up|booking|hidden)\s+fees?\b[^.,;!?]{0,14}/i,
  /\b(?:buy one,? get one free|bogo|0% finance|money-back guarantee)\b/i,
  /\btry\s+\d+\s+days\s+free\b/i,
];

export function offerSticker(line: string): Sticker | null {
  for (const pattern of OFFERS) {
    const match = line.match(pattern);
    if (match) {
      const text = tidy(match[0]).replace(/\s+(?:and|with|on|for|when|if)$/i, "");
      if (text.length <= 32) return { kind: "offer", text: upperFirst(text) };
    }
  }
  return null;
}

/** A launch the brief announces ("New: the Tempo 3", "Introducing…", "Just launched"). */
export function newSticker(line: string): Sticker | null {
  return /^(new\s*[:!—–-]|brand[- ]new\b|introducing\b|just launched\b|now available\b)/i.test(line.trim())
    ? { kind: "new", text: "New" }
    : null;
}

/** The badges a line gives, in the order rating, price, offer, new. */
export function stickersOfLine(line: string): Sticker[] {
  return [ratingSticker(line), priceSticker(line), offerSticker(line), newSticker(line)].filter((s): s is Sticker => !!s);
}

/** True when a sticker's figures all occur in `source` (the brief, page and knowledge as one text): never invented. */
export function stickerBackedBy(sticker: Sticker, source: string): boolean {
  const figures = sticker.text.match(/\d[\d,.]*/g) ?? [];
  const flat = source.replace(/\s+/g, " ").toLowerCase();
  if (sticker.kind === "new") return /\b(new|introducing|launch)/i.test(source);
  if (sticker.kind === "fact") return flat.includes(sticker.text.toLowerCase().replace(/[.!]$/, ""));
  return (
    figures.every((figure) => flat.includes(figure.replace(/[.,]$/, ""))) &&
    (figures.length > 0 || flat.includes(sticker.text.toLowerCase()))
  );
}

// What a landing page offers a visitor who arrives from an ad: how to reach the business (tap-to-call,
// address, e-mail, hours), what to do next (call-to-action buttons and links), whether it is built for
// phones (viewport), why to trust it (reviews, ratings, guarantees, HTTPS) and how heavy it is. Read from
// the HTML the page reader already fetched; nothing else is requested (no scripts, images or styles).
import type { CheerioAPI } from "cheerio/slim";

export interface PageSignals {
  /** The final URL is https. */
  https: boolean;
  /** Time to fetch the whole HTML document (ms), redirects included. */
  fetchMs: number;
  /** Size of the HTML document (decoded bytes). */
  htmlBytes: number;
  /** Resources the page would load next: external scripts, style sheets, images, iframes. */
  resources: { scripts: number; stylesheets: number; images: number; iframes: number };
  /** `<meta name="viewport">` content, or null. */
  viewport: string | null;
  /** The viewport adapts to the phone's width (`width=device-width`). */
  mobileViewport: boolean;
  /** Numbers of `tel:` links (tap-to-call). */
  telLinks: string[];
  /** Phone numbers written in the page's text (with or without a link). */
  phoneNumbers: string[];
  /** E-mail addresses (`mailto:` links and written ones). */
  emails: string[];
  /** The business address (an `<address>` element, schema.org PostalAddress or a street line), or null. */
  address: string | null;
  /** Opening hours are stated (text or schema.org openingHours). */
  openingHours: boolean;
  /** Call-to-action texts: buttons and links that ask for an action (call, book, order, get a quote, …). */
  ctas: string[];
  /** A call to action appears in the first screen: header, hero, or before the page's second heading. */
  ctaAboveFold: boolean;
  /** Main headline (first h1) and supporting headings (h2, max 5). */
  h1: string | null;
  h2: string[];
  /** Concrete offer terms found in headings, title and description: prices, percentages, "free …", "% off". */
  offerTerms: string[];
  /** Trust signals found, each a short label ("customer reviews", "star rating", "licensed and insured", …). */
  trust: string[];
  /** Words of visible text. */
  wordCount: number;
}

const MAX_ITEMS = 8;
const MAX_LABEL = 80;

const CTA_WORDS =
  /\b(call|book|order|buy|shop|get (?:a|your|started|quote|directions)|request|schedule|reserve|contact|quote|sign ?up|subscribe|start|try|visit|find us|directions|apply|enquire|inquire|claim|download|join|hire)\b/i;
const PHONE_IN_TEXT = /(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,5}\)[\s.-]?)?\d{2,5}[\s.-]\d{2,5}(?:[\s.-]\d{2,5})?/g;
const EMAIL_IN_TEXT = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const STREET =
  /\b\d{1,5}\s+[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,3}\s+(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Way|Place|Pl|Court|Ct|Square|Sq|Parkway|Pkwy|Highway|Hwy)\b\.?[^.\n]{0,60}/;
const HOURS = /\b(opening hours|hours of operation|business hours|open (?:daily|today|24\/7|mon)|mon(?:day)?\s*[-–to]+\s*(?:fri|sat|sun))/i;
const OFFER = [
  /[$€£]\s?\d[\d,.]*/g,
  /\b\d{1,3}\s?% off\b/gi,
  /\b\d{1,3}\s?%/g,
  /\bfree (?:estimate|quote|consultation|delivery|shipping|trial|inspection|assessment|audit|check-?up|first \w+)\b/gi,
  /\b(?:same[- ]day|next[- ]day|24\/7|emergency) (?:service|repairs?|delivery|appointments?)\b/gi,
  /\b(?:discount|special offer|limited[- ]time|deal|coupon|promo)\b/gi,
];
const TRUST: { label: string; pattern: RegExp }[] = [
  { label: "customer reviews", pattern: /\b(reviews?|testimonials?|what (?:our )?(?:customers|clients) say)\b/i },
  { label: "star rating", pattern: /(★|⭐|\b[1-5](?:\.\d)?\s*(?:\/\s*5|out of 5|stars?)\b|\brated\b)/i },
  { label: "licensed, insured or certified", pattern: /\b(licensed|insured|certified|accredited|bonded)\b/i },
  { label: "guarantee", pattern: /\b(guarantee[ds]?|warranty|money[- ]back)\b/i },
  { label: "years in business", pattern: /\b(since (?:19|20)\d{2}|\d{1,3}\+? years? (?:of )?(?:experience|in business|serving))\b/i },
  { label: "awards or memberships", pattern: /\b(award[- ]winning|awards?|member of|bbb|chamber of commerce)\b/i },
];

function clip(text: string): string {
  const value = text.replace(/\s+/g, " ").trim();
  return value.length > MAX_LABEL ? `${value.slice(0, MAX_LABEL - 1)}…` : value;
}

function unique(values: Iterable<string>, max = MAX_ITEMS): string[] {
  const out: string[] = [];
  for (const value of values) {
    const v = clip(value);
    if (v && !out.includes(v)) out.push(v);
    if (out.length >= max) break;
  }
  return out;
}

/** schema.org objects in JSON-LD blocks, flattened (@graph and arrays). */
function jsonLd($: CheerioAPI): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  const visit = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === "object") {
      found.push(node as Record<string, unknown>);
      const graph = (node as Record<string, unknown>)["@graph"];
      if (graph) visit(graph);
    }
  };
  $('script[type="application/ld+json"]').each((_, element) => {
    try {
      visit(JSON.parse($(element).text()));
    } catch {
      // a broken block says nothing
    }
  });
  return found;
}

function addressFromLd(nodes: Record<string, unknown>[]): string | null {
  for (const node of nodes) {
    const address = node.address;
    if (typeof address === "string" && address.trim()) return address;
    if (address && typeof address === "object") {
      const a = address as Record<string, unknown>;
      const parts = [a.streetAddress, a.addressLocality, a.postalCode, a.addressRegion].filter((p): p is string => typeof p === "string");
      if (parts.length) return parts.join(", ");
    }
  }
  return null;
}

export interface SignalInput {
  $: CheerioAPI;
  url: string;
  htmlBytes: number;
  fetchMs: number;
  title: string | null;
  description: string | null;
}

export function readPageSignals({ $, url, htmlBytes, fetchMs, title, description }: SignalInput): PageSignals {
  const ld = jsonLd($);
  const body = $("body");
  // Visible text only: scripts, styles and templates say nothing to a visitor.
  const clone = body.clone();
  clone.find("script, style, noscript, template").remove();
  const text = clone.text().replace(/\s+/g, " ").trim();

  const viewport = $('meta[name="viewport" i]').attr("content")?.trim() || null;

  const telLinks = unique(
    $('a[href^="tel:" i]')
      .map((_, el) => decodeURIComponent((el.attribs.href ?? "").slice(4)).trim())
      .get(),
  );
  const phoneNumbers = unique(
    (text.match(PHONE_IN_TEXT) ?? []).filter((p) => p.replace(/\D/g, "").length >= 7 && p.replace(/\D/g, "").length <= 15),
  );
  const emails = unique([
    ...$('a[href^="mailto:" i]')
      .map((_, el) => (el.attribs.href ?? "").slice(7).split("?")[0] ?? "")
      .get(),
    ...(text.match(EMAIL_IN_TEXT) ?? []),
  ]);

  const addressElement = clip($("address").first().text());
  const microdata = $('[itemprop="streetAddress"], [itemtype*="PostalAddress"]').first().text();
  const address = addressElement || addressFromLd(ld) || (microdata ? clip(microdata) : null) || (text.match(STREET)?.[0]?.trim() ?? null);

  const openingHours =
    HOURS.test(text) ||
    ld.some((n) => "openingHours" in n || "openingHoursSpecification" in n) ||
    $('[itemprop="openingHours"]').length > 0;

  // Calls to action: buttons, button-like links, and links whose words ask for an action.
  const ctaElements = $('button, input[type="submit"], a[href], [role="button"]').filter((_, el) => {
    const node = $(el);
    const label = clip(node.text() || node.attr("value") || node.attr("aria-label") || "");
    if (!label || label.length > 40) return false;
    const href = (el.attribs.href ?? "").toLowerCase();
    const looksLikeButton = el.tagName === "button" || el.tagName === "input" || /\b(btn|button|cta)\b/i.test(el.attribs.class ?? "");
    return href.startsWith("tel:") || (CTA_WORDS.test(label) && (looksLikeButton || el.tagName === "a"));
  });
  const ctas = unique(ctaElements.map((_, el) => $(el).text() || $(el).attr("value") || $(el).attr("aria-label") || "").get());
  // Document order: a call to action before the page's second heading is in its first screen.
  const order = $("*").toArray();
  const secondHeading = $("h2, h3").first().get(0);
  const foldIndex = secondHeading ? order.indexOf(secondHeading) : Number.POSITIVE_INFINITY;
  const ctaAboveFold = ctaElements
    .toArray()
    .some((el) => $(el).closest("header, nav, .hero, #hero, [class*=hero], [class*=banner]").length > 0 || order.indexOf(el) < foldIndex);

  const h1 = clip($("h1").first().text()) || null;
  const h2 = unique(
    $("h2")
      .map((_, el) => $(el).text())
      .get(),
    5,
  );
  const offerSource = [title, description, h1, ...h2, $(".hero, [class*=hero], header").text()].filter(Boolean).join(" \n ");
  const offerTerms = unique(OFFER.flatMap((pattern) => offerSource.match(pattern) ?? []));

  const trust = TRUST.filter(({ pattern }) => pattern.test(text)).map(({ label }) => label);
  if (ld.some((n) => "aggregateRating" in n || n["@type"] === "Review") || $('[itemprop="aggregateRating"], [itemprop="review"]').length) {
    if (!trust.includes("star rating")) trust.push("star rating");
  }

  const external = (selector: string, attr: string) => $(selector).filter((_, el) => !!$(el).attr(attr)).length;
  return {
    https: url.startsWith("https:"),
    fetchMs: Math.round(fetchMs),
    htmlBytes,
    resources: {
      scripts: external("script[src]", "src"),
      stylesheets: $('link[rel~="stylesheet" i]').length,
      images: external("img", "src"),
      iframes: $("iframe").length,
    },
    viewport,
    mobileViewport: !!viewport && /width\s*=\s*device-width/i.test(viewport),
    telLinks,
    phoneNumbers,
    emails,
    address: address ? clip(address) : null,
    openingHours,
    ctas,
    ctaAboveFold,
    h1,
    h2,
    offerTerms,
    trust,
    wordCount: text ? text.split(" ").length : 0,
  };
}

// What a page shows of its brand beyond title and colours: the font families its CSS names (inline styles,
// <style>, linked style sheets, Google Fonts links), the pictures that look like its logo, and its copy
// block by block (for the brand kit's tone and claims). Linked style sheets are fetched with the same
// SSRF-safe fetcher as the page, few and small; nothing else is requested (no fonts, scripts or images).
import type { CheerioAPI } from "cheerio/slim";
import { type SafeFetchOptions, safeFetch } from "./safe-fetch.ts";

export interface PageBrand {
  /** Font families named by the page's CSS, most used first (generic and system families left out). */
  fonts: string[];
  /** Absolute http(s) URLs of pictures that look like the logo, best first. Not fetched or checked. */
  logoCandidates: string[];
  /** The page's visible copy, one block per heading, paragraph, list item or quote, in reading order. */
  copy: string[];
}

const MAX_FONTS = 6;
const MAX_LOGOS = 5;
const MAX_COPY_BLOCKS = 200;
const MAX_BLOCK_CHARS = 1000;
/** Linked style sheets read: the first few, each small (a brand's base sheet comes first). */
const MAX_STYLESHEETS = 4;
const MAX_STYLESHEET_BYTES = 512 * 1024;
const STYLESHEET_TIMEOUT_MS = 5_000;

/** Services that only serve fonts: their links name the families in the URL, which is all we need. */
const FONT_SERVICES = /^(fonts\.googleapis\.com|fonts\.bunny\.net)$/i;

const GENERIC_FAMILIES = new Set([
  "serif",
  "sans-serif",
  "monospace",
  "cursive",
  "fantasy",
  "system-ui",
  "ui-serif",
  "ui-sans-serif",
  "ui-monospace",
  "ui-rounded",
  "emoji",
  "math",
  "fangsong",
  "inherit",
  "initial",
  "unset",
  "revert",
  "revert-layer",
  "none",
]);
/** A declaration that starts with one of these is the operating system's font stack, not a brand's choice. */
const SYSTEM_STACK = /^(-apple-system|blinkmacsystemfont|system-ui|ui-sans-serif|ui-serif|ui-monospace|segoe ui)$/i;

function absolute(value: string | undefined, base: string): string | null {
  if (!value) return null;
  try {
    const url = new URL(value.trim(), base);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------- fonts

/** The items of a font-family list (`"Inter", Arial, sans-serif`), unquoted. */
function familyList(value: string): string[] {
  const items = value.match(/"[^"]*"|'[^']*'|[^,]+/g) ?? [];
  return items
    .map((item) =>
      item
        .replace(/!important/i, "")
        .trim()
        .replace(/^["']|["']$/g, "")
        .trim(),
    )
    .filter(Boolean);
}

/** A name that can be a font family: words, no CSS syntax. */
const isFamilyName = (name: string) => name.length <= 60 && /^[\p{L}\p{N}][\p{L}\p{N} _-]*$/u.test(name);
/** Icon fonts draw symbols, not the brand's lettering. */
const ICON_FONT = /icon|awesome|glyph|symbols|dashicons|icomoon|slick|swiper/i;

/** The family part of a `font:` shorthand (`italic 700 1rem/1.4 "Inter", sans-serif` → `"Inter", sans-serif`). */
function shorthandFamilies(value: string): string | null {
  const match = value.match(
    /(?:^|\s)(?:[\d.]+(?:px|em|rem|pt|pc|%|vw|vh|vmin|vmax|ch|ex|q|mm|cm|in)|xx-small|x-small|small|medium|large|x-large|xx-large|xxx-large|larger|smaller)(?:\s*\/\s*\S+)?\s+(.+)$/i,
  );
  return match?.[1] ?? null;
}

class FontTally {
  private readonly counts = new Map<string, { name: string; count: number; order: number }>();
  private readonly variables = new Map<string, string>();

  add(name: string, weight: number): void {
    const key = name.toLowerCase();
    if (GENERIC_FAMILIES.has(key) || !isFamilyName(name) || ICON_FONT.test(name)) return;
    const entry = this.counts.get(key);
    if (entry) entry.count += weight;
    else this.counts.set(key, { name, count: weight, order: this.counts.size });
  }

  /** Counts the first family a declaration asks for (the others are fallbacks); a system stack counts nothing. */
  declaration(value: string, weight = 1): void {
    const first = familyList(value)[0];
    if (!first || SYSTEM_STACK.test(first)) return;
    const variable = first.match(/^var\(\s*(--[\w-]+)\s*(?:,\s*(.+))?\)$/);
    if (variable) {
      const resolved = this.variables.get(variable[1]!) ?? variable[2];
      if (resolved) this.declaration(resolved, weight);
      return;
    }
    this.add(first, weight);
  }

  /** Reads every font declaration of a style sheet (or of one element's `style` attribute). */
  stylesheet(css: string): void {
    const text = css.replace(/\/\*[\s\S]*?\*\//g, "");
    // Families declared by @font-face are loaded for use, which the declarations below count; on their own
    // they weigh less than a use.
    for (const face of text.matchAll(/@font-face\s*\{([^}]*)\}/gi)) {
      const family = face[1]?.match(/font-family\s*:\s*([^;]+)/i)?.[1];
      if (family) this.declaration(family, 0.5);
    }
    const rules = text.replace(/@font-face\s*\{[^}]*\}/gi, "");
    // Custom properties that hold a family (`--font-heading: "Playfair Display", serif`) count as a use and
    // resolve `font-family: var(--font-heading)` below.
    for (const custom of rules.matchAll(/(--[\w-]*font[\w-]*)\s*:\s*([^;{}]+)/gi)) {
      const value = custom[2]!.trim();
      if (/^\d|^var\(/.test(value) || !/[a-z]/i.test(value)) continue;
      this.variables.set(custom[1]!, value);
      this.declaration(value);
    }
    for (const declaration of rules.matchAll(/(?:^|[;{\s])(font-family|font)\s*:\s*([^;{}]+)/gi)) {
      const value = declaration[2]!.trim();
      if (declaration[1]!.toLowerCase() === "font-family") this.declaration(value);
      else {
        const families = shorthandFamilies(value);
        if (families) this.declaration(families);
      }
    }
    for (const link of rules.matchAll(/@import\s+(?:url\()?\s*["']?([^"')\s;]+)/gi)) this.fontServiceUrl(link[1]!);
  }

  /** Families named in a Google Fonts (or Bunny Fonts) URL: `family=Inter:wght@400;700&family=Playfair+Display`. */
  fontServiceUrl(href: string): void {
    let url: URL;
    try {
      url = new URL(href, "https://fonts.googleapis.com/");
    } catch {
      return;
    }
    if (!FONT_SERVICES.test(url.hostname)) return;
    for (const param of url.searchParams.getAll("family")) {
      // css2: one family per parameter; css (v1): several joined by "|".
      for (const family of param.split("|")) this.add(family.split(":")[0]!.replace(/\+/g, " ").trim(), 1);
    }
  }

  top(limit: number): string[] {
    return [...this.counts.values()]
      .sort((a, b) => b.count - a.count || a.order - b.order)
      .slice(0, limit)
      .map((entry) => entry.name);
  }
}

// ---------------------------------------------------------------------------------------------- style sheets

/**
 * The page's first few linked style sheets, fetched with the page's fetch options (same SSRF checks,
 * resolver and abort signal). A sheet that cannot be fetched is skipped: the kit is read from the rest.
 */
export async function linkedStylesheets($: CheerioAPI, base: string, options: SafeFetchOptions): Promise<string[]> {
  const hrefs: string[] = [];
  $("link[rel][href]").each((_, element) => {
    if (!/(^|\s)stylesheet(\s|$)/i.test(element.attribs.rel ?? "")) return;
    const href = absolute(element.attribs.href, base);
    if (href && !FONT_SERVICES.test(new URL(href).hostname) && !hrefs.includes(href)) hrefs.push(href);
  });
  const sheets = await Promise.all(
    hrefs.slice(0, MAX_STYLESHEETS).map(async (href) => {
      try {
        const response = await safeFetch(href, {
          ...options,
          method: "GET",
          body: undefined,
          maxBytes: MAX_STYLESHEET_BYTES,
          timeoutMs: Math.min(options.timeoutMs ?? STYLESHEET_TIMEOUT_MS, STYLESHEET_TIMEOUT_MS),
          headers: { accept: "text/css,*/*;q=0.1" },
        });
        const type = response.headers.get("content-type");
        if (response.status < 200 || response.status >= 300 || (type && !/css|text\/plain/i.test(type))) return null;
        return response.body.toString("utf8");
      } catch {
        if (options.signal?.aborted) throw options.signal.reason;
        return null;
      }
    }),
  );
  return sheets.filter((sheet): sheet is string => sheet !== null);
}

// ---------------------------------------------------------------------------------------------- logo

/** `logo` values anywhere in the page's JSON-LD (schema.org Organization, Brand, WebSite…). */
function jsonLdLogos($: CheerioAPI): string[] {
  const found: string[] = [];
  const visit = (value: unknown, depth: number) => {
    if (depth > 8 || value === null || typeof value !== "object") return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
      return;
    }
    for (const [key, item] of Object.entries(value)) {
      if (key === "logo") {
        if (typeof item === "string") found.push(item);
        else if (item && typeof item === "object" && typeof (item as { url?: unknown }).url === "string")
          found.push((item as { url: string }).url);
      } else visit(item, depth + 1);
    }
  };
  $('script[type="application/ld+json"]').each((_, element) => {
    try {
      visit(JSON.parse($(element).text()), 0);
    } catch {
      // not JSON: ignored
    }
  });
  return found;
}

const LOGO_HINT = /logo|brand/i;

function logoCandidates($: CheerioAPI, base: string): string[] {
  const candidates: string[] = [];
  const add = (value: string | undefined) => {
    const url = absolute(value, base);
    // A profile's logoUrl holds at most 2048 characters.
    if (url && url.length <= 2048 && !candidates.includes(url)) candidates.push(url);
  };
  for (const logo of jsonLdLogos($)) add(logo);
  $('[itemprop="logo"]').each((_, element) => add(element.attribs.content ?? element.attribs.src ?? element.attribs.href));
  $('meta[property="og:logo"]').each((_, element) => add(element.attribs.content));
  // Pictures that say they are the logo (in their name, alt text, class or id, or their link's), those in
  // the page's header first.
  const marked: { src: string; inHeader: boolean }[] = [];
  $("img").each((_, element) => {
    const attrs = element.attribs;
    const src = attrs.src ?? attrs["data-src"];
    if (!src || src.startsWith("data:")) return;
    const parent = $(element).parent();
    const hints = [src, attrs.alt, attrs.class, attrs.id, parent.attr("class"), parent.attr("id")].filter(Boolean).join(" ");
    if (!LOGO_HINT.test(hints)) return;
    const inHeader = $(element).closest("header, nav, [class*='header'], [id*='header']").length > 0;
    marked.push({ src, inHeader });
  });
  for (const image of [...marked.filter((m) => m.inHeader), ...marked.filter((m) => !m.inHeader)]) add(image.src);
  // Last: the icons the site gives phones and browsers, largest first.
  const icons: { href: string; size: number }[] = [];
  $("link[rel][href]").each((_, element) => {
    const rel = element.attribs.rel ?? "";
    if (!/(^|\s)(apple-touch-icon|icon)(\s|$)/i.test(rel)) return;
    const size =
      Number.parseInt(element.attribs.sizes ?? "", 10) ||
      (/apple-touch-icon/i.test(rel) ? 180 : /\.svg(\?|$)/i.test(element.attribs.href ?? "") ? 512 : 16);
    icons.push({ href: element.attribs.href!, size });
  });
  for (const icon of icons.sort((a, b) => b.size - a.size)) add(icon.href);
  return candidates.slice(0, MAX_LOGOS);
}

// ---------------------------------------------------------------------------------------------- copy

function pageCopy($: CheerioAPI): string[] {
  const blocks: string[] = [];
  $("h1, h2, h3, h4, p, li, blockquote, figcaption, dd").each((_, element) => {
    const node = $(element);
    // Menus and the footer's fine print say little about how the brand speaks.
    if (node.closest("nav, footer, script, style, noscript, template, [aria-hidden='true'], form").length > 0) return;
    const text = node.text().replace(/\s+/g, " ").trim();
    if (text.split(" ").length < 2 || text.length > MAX_BLOCK_CHARS || blocks.includes(text)) return;
    blocks.push(text);
  });
  return blocks.slice(0, MAX_COPY_BLOCKS);
}

// ---------------------------------------------------------------------------------------------- page

/** The brand-related facts of a parsed page; `css` is every style sheet it uses (inline and linked). */
export function readPageBrand({ $, base, linkedCss }: { $: CheerioAPI; base: string; linkedCss: readonly string[] }): PageBrand {
  const fonts = new FontTally();
  $("link[href]").each((_, element) => fonts.fontServiceUrl(element.attribs.href ?? ""));
  for (const css of linkedCss) fonts.stylesheet(css);
  $("style").each((_, element) => fonts.stylesheet($(element).text()));
  $("[style]").each((_, element) => fonts.stylesheet(`{${element.attribs.style ?? ""}}`));
  return { fonts: fonts.top(MAX_FONTS), logoCandidates: logoCandidates($, base), copy: pageCopy($) };
}

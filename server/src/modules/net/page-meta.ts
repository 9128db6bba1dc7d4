// Reads what a public web page says about itself (title, description, images, brand colours) for
// knowledge/brand extraction. A page that cannot be fetched is not an error, only a warning; a URL that
// must not be fetched at all (private address, bad scheme, …) is the caller's error and throws.
import { load } from "cheerio/slim";
import { linkedStylesheets, type PageBrand, readPageBrand } from "./page-brand.ts";
import { type PageOutline, readPageOutline } from "./page-outline.ts";
import { type PageSignals, readPageSignals } from "./page-signals.ts";
import { type SafeFetchOptions, SafeFetchError, safeFetch } from "./safe-fetch.ts";

export type { PageBrand, PageOutline, PageSignals };

export interface PageMeta {
  /** Final URL after redirects (the requested one when nothing was fetched). */
  url: string;
  title: string | null;
  description: string | null;
  siteName: string | null;
  /** Absolute http(s) URLs: og:image, twitter:image, image_src, then large <img>. Not fetched or checked. */
  images: string[];
  /** #rrggbb: theme-color first, then colours from inline styles and <style>, most frequent first; max 5. */
  colors: string[];
  warnings: string[];
  /** What a visitor from an ad finds (contact, calls to action, trust, weight); only with `signals: true` and a fetched page. */
  signals?: PageSignals;
  /** Headings, text and buttons in reading order; only with `outline: true` and a fetched page. */
  outline?: PageOutline;
  /** Fonts, logo candidates and copy; only with `brand: true` and a fetched page (see page-brand.ts). */
  brand?: PageBrand;
}

export interface ReadPageOptions extends SafeFetchOptions {
  /** Also read the page's ad-readiness signals (see page-signals.ts). */
  signals?: boolean;
  /** Also read the page's outline (see page-outline.ts). */
  outline?: boolean;
  /**
   * Also read what the page shows of its brand (see page-brand.ts). Its first few linked style sheets are
   * then fetched too, and their colours count in `colors`.
   */
  brand?: boolean;
}

const MAX_IMAGES = 12;
const MAX_COLORS = 5;
const LARGE_IMAGE_PX = 200;
const MAX_TEXT = 500;

function clean(text: string | undefined | null): string | null {
  if (!text) return null;
  const value = text.replace(/\s+/g, " ").trim();
  if (!value) return null;
  return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT - 1)}…` : value;
}

function charsetOf(contentType: string | null, head: string): string {
  const fromHeader = contentType?.match(/charset\s*=\s*["']?([\w.:-]+)/i)?.[1];
  if (fromHeader) return fromHeader;
  const fromMeta = head.match(/<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i)?.[1];
  return fromMeta ?? "utf-8";
}

function decodeHtml(body: Buffer, contentType: string | null): string {
  const label = charsetOf(contentType, body.subarray(0, 4096).toString("latin1"));
  try {
    return new TextDecoder(label).decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

function absolute(value: string | undefined, base: string): string | null {
  if (!value) return null;
  try {
    const url = new URL(value.trim(), base);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------- colours

type Rgb = [number, number, number];

function hex(rgb: Rgb): string {
  return `#${rgb
    .map((c) =>
      Math.round(Math.min(255, Math.max(0, c)))
        .toString(16)
        .padStart(2, "0"),
    )
    .join("")}`;
}

function channel(value: string): number {
  return value.endsWith("%") ? (Number.parseFloat(value) / 100) * 255 : Number.parseFloat(value);
}

function alphaOf(value: string | undefined): number {
  if (value === undefined) return 1;
  return value.endsWith("%") ? Number.parseFloat(value) / 100 : Number.parseFloat(value);
}

function hslToRgb(h: number, s: number, l: number): Rgb {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))) * 255;
  };
  return [f(0), f(8), f(4)];
}

const COLOR_PATTERN =
  /#([0-9a-f]{8}|[0-9a-f]{6}|[0-9a-f]{3,4})\b|rgba?\(\s*([\d.]+%?)[\s,]+([\d.]+%?)[\s,]+([\d.]+%?)(?:[\s,/]+([\d.]+%?))?\s*\)|hsla?\(\s*([\d.]+)(?:deg)?[\s,]+([\d.]+)%[\s,]+([\d.]+)%(?:[\s,/]+([\d.]+%?))?\s*\)/gi;

/** Colours written in a CSS value, as #rrggbb (transparent ones dropped). */
function colorsIn(value: string): string[] {
  const found: string[] = [];
  for (const m of value.matchAll(COLOR_PATTERN)) {
    if (m[1]) {
      let digits = m[1].toLowerCase();
      if (digits.length <= 4) digits = [...digits].map((d) => d + d).join("");
      if (digits.length === 8 && digits.slice(6) === "00") continue;
      found.push(`#${digits.slice(0, 6)}`);
    } else if (m[2] && m[3] && m[4]) {
      if (alphaOf(m[5]) === 0) continue;
      const rgb: Rgb = [channel(m[2]), channel(m[3]), channel(m[4])];
      if (rgb.every(Number.isFinite)) found.push(hex(rgb));
    } else if (m[6] && m[7] && m[8]) {
      if (alphaOf(m[9]) === 0) continue;
      const rgb = hslToRgb(Number.parseFloat(m[6]) % 360, Number.parseFloat(m[7]) / 100, Number.parseFloat(m[8]) / 100);
      if (rgb.every(Number.isFinite)) found.push(hex(rgb));
    }
  }
  return found;
}

/** Values of CSS declarations (`prop: value`) in a declaration list. */
function declarationValues(declarations: string): string[] {
  return declarations
    .split(";")
    .map((declaration) => {
      const colon = declaration.indexOf(":");
      return colon === -1 ? "" : declaration.slice(colon + 1);
    })
    .filter(Boolean);
}

/** Colours used in a style sheet's declarations; selectors such as `#fade` are not mistaken for colours. */
function colorsInStylesheet(css: string): string[] {
  const withoutComments = css.replace(/\/\*[\s\S]*?\*\//g, "");
  const found: string[] = [];
  for (const block of withoutComments.matchAll(/\{([^{}]*)\}/g)) {
    for (const value of declarationValues(block[1] ?? "")) found.push(...colorsIn(value));
  }
  return found;
}

/** Near-white, near-black and greys say nothing about a brand. */
function isNeutral(color: string): boolean {
  const r = Number.parseInt(color.slice(1, 3), 16);
  const g = Number.parseInt(color.slice(3, 5), 16);
  const b = Number.parseInt(color.slice(5, 7), 16);
  const max = Math.max(r, g, b) / 255;
  const min = Math.min(r, g, b) / 255;
  const lightness = (max + min) / 2;
  return max - min < 0.1 || lightness > 0.95 || lightness < 0.06;
}

function rankColors(themeColors: string[], cssColors: string[]): string[] {
  const result: string[] = [];
  for (const color of themeColors) {
    if (!isNeutral(color) && !result.includes(color)) result.push(color);
  }
  const counts = new Map<string, number>();
  for (const color of cssColors) {
    if (!isNeutral(color)) counts.set(color, (counts.get(color) ?? 0) + 1);
  }
  // Map keeps first-seen order, and sort is stable: equal counts stay in document order.
  const byFrequency = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([color]) => color);
  for (const color of byFrequency) {
    if (!result.includes(color)) result.push(color);
  }
  return result.slice(0, MAX_COLORS);
}

// ---------------------------------------------------------------------------------------------- page

function normalizedUrl(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

/**
 * Fetches `url` with safeFetch and reads its metadata. Never throws for a page that is down, slow, too
 * large, not HTML or answers an error status (nulls plus a warning such as "could not fetch <url>: HTTP 500");
 * throws the AppError 400 from assertPublicUrl for a URL that must not be fetched (also at a redirect hop).
 */
export async function readPageMeta(url: string, readOptions: ReadPageOptions = {}): Promise<PageMeta> {
  const { signals: withSignals, outline: withOutline, brand: withBrand, ...options } = readOptions;
  const meta: PageMeta = { url: normalizedUrl(url), title: null, description: null, siteName: null, images: [], colors: [], warnings: [] };

  const started = performance.now();
  let response: Awaited<ReturnType<typeof safeFetch>>;
  try {
    response = await safeFetch(url, {
      ...options,
      method: "GET",
      body: undefined,
      headers: { accept: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5", ...options.headers },
    });
  } catch (error) {
    if (error instanceof SafeFetchError) {
      if (error.reason === "unsafe_url") throw error;
      meta.warnings.push(`could not fetch ${meta.url}: ${error.detail}`);
      return meta;
    }
    if (options.signal?.aborted) throw error;
    meta.warnings.push(`could not fetch ${meta.url}: ${error instanceof Error ? error.message : String(error)}`);
    return meta;
  }

  meta.url = response.url;
  if (response.status < 200 || response.status >= 300) {
    meta.warnings.push(`could not fetch ${meta.url}: HTTP ${response.status}`);
    return meta;
  }
  const contentType = response.headers.get("content-type");
  if (contentType && !/html|xml/i.test(contentType)) {
    meta.warnings.push(`${meta.url} is not an HTML page (content-type ${contentType})`);
    return meta;
  }

  const fetchMs = performance.now() - started;
  const $ = load(decodeHtml(response.body, contentType));

  const metas = new Map<string, string[]>();
  $("meta").each((_, element) => {
    const attrs = element.attribs ?? {};
    const key = (attrs.property ?? attrs.name ?? attrs.itemprop ?? "").trim().toLowerCase();
    const content = attrs.content?.trim();
    if (!key || !content) return;
    metas.set(key, [...(metas.get(key) ?? []), content]);
  });
  const first = (...keys: string[]) => {
    for (const key of keys) {
      const value = clean(metas.get(key)?.[0]);
      if (value) return value;
    }
    return null;
  };
  const all = (...keys: string[]) => keys.flatMap((key) => metas.get(key) ?? []);

  meta.title = clean($("title").first().text()) ?? first("og:title", "twitter:title");
  meta.description = first("description", "og:description", "twitter:description");
  meta.siteName = first("og:site_name", "application-name", "apple-mobile-web-app-title");

  const base = absolute($("base[href]").first().attr("href"), response.url) ?? response.url;
  const images: string[] = [];
  const addImage = (value: string | undefined) => {
    const resolved = absolute(value, base);
    if (resolved && !images.includes(resolved)) images.push(resolved);
  };
  for (const value of all("og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src")) addImage(value);
  $("link[rel]").each((_, element) => {
    if (/(^|\s)image_src(\s|$)/i.test(element.attribs.rel ?? "")) addImage(element.attribs.href);
  });
  $("img").each((_, element) => {
    const width = Number.parseInt(element.attribs.width ?? "", 10);
    const height = Number.parseInt(element.attribs.height ?? "", 10);
    if (width >= LARGE_IMAGE_PX || height >= LARGE_IMAGE_PX) addImage(element.attribs.src ?? element.attribs["data-src"]);
  });
  meta.images = images.slice(0, MAX_IMAGES);

  const themeColors = all("theme-color", "msapplication-tilecolor", "msapplication-navbutton-color").flatMap(colorsIn);
  const cssColors: string[] = [];
  $("style").each((_, element) => {
    cssColors.push(...colorsInStylesheet($(element).text()));
  });
  $("[style]").each((_, element) => {
    for (const value of declarationValues(element.attribs.style ?? "")) cssColors.push(...colorsIn(value));
  });
  const linkedCss = withBrand ? await linkedStylesheets($, base, options) : [];
  for (const css of linkedCss) cssColors.push(...colorsInStylesheet(css));
  meta.colors = rankColors(themeColors, cssColors);
  if (withBrand) meta.brand = readPageBrand({ $, base, linkedCss });

  if (withSignals) {
    meta.signals = readPageSignals({
      $,
      url: response.url,
      htmlBytes: response.body.length,
      fetchMs,
      title: meta.title,
      description: meta.description,
    });
  }

  if (withOutline) meta.outline = readPageOutline($);

  if (!meta.title && !meta.description) meta.warnings.push(`${meta.url} has no title or description`);
  return meta;
}

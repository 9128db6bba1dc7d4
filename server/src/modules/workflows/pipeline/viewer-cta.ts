// What the end card asks the viewer to do, when the brief quotes no call to action: the page's own button
// ("Open an account"), else the copywriter's verb for the product. A call to action names a site only by
// its domain name: an IP address, localhost or a bare host with a port is an address a viewer cannot
// read or type, so the ad falls back to the type's verb rather than "Visit 93.184.216.34".
import { isIP } from "node:net";
import type { PageOutline } from "../../net/page-outline.ts";

/** Button words that are not an action a viewer of an ad takes on the advertiser's page. */
const NOT_AN_OFFER = /\b(log ?in|sign ?in|menu|cookies?|accept|reject|close|search|skip|back|next|previous|more|read more|language)\b/i;
const MAX_WORDS = 5;
const MAX_CHARS = 28;

/** The page's own call to action: its first button that reads as one (2–5 words, letters only). */
export function pageCallToAction(outline: PageOutline | undefined): string | null {
  for (const block of outline?.blocks ?? []) {
    if (block.kind !== "button") continue;
    const text = block.text.replace(/[→›»>]+\s*$/u, "").trim();
    const words = text.split(/\s+/);
    if (words.length < 2 || words.length > MAX_WORDS || text.length > MAX_CHARS) continue;
    if (NOT_AN_OFFER.test(text) || /[@/:]|\d{3,}/.test(text) || !/^\p{Lu}|^\p{Ll}/u.test(text)) continue;
    return text.charAt(0).toUpperCase() + text.slice(1);
  }
  return null;
}

/** The page's domain name as a viewer would type it ("shop.example"), or null when it is not one. */
export function shownHost(pageUrl: string | null | undefined): string | null {
  if (!pageUrl) return null;
  let url: URL;
  try {
    url = new URL(pageUrl);
  } catch {
    return null;
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) || url.port || !host.includes(".") || /(^|\.)localhost$/i.test(host)) return null;
  if (!/[a-z]/i.test(host.split(".").at(-1) ?? "")) return null;
  return host.replace(/^www\./i, "");
}

/** Whether a call-to-action line shows an address a viewer cannot use (an IP address or a raw URL). */
export function ctaShowsAddress(line: string): boolean {
  return /\b\d{1,3}(\.\d{1,3}){3}\b|https?:\/\/|\blocalhost\b|:\d{2,5}\b/i.test(line);
}

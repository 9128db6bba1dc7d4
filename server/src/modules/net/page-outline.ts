// What a page says, in the order a visitor reads it: headings, the text under them and the buttons that
// ask for an action. An inspiration (clone) job reads a reference ad's structure from it. Read from the
// HTML the page reader already fetched; navigation and footers are left out (they are not the message).
import type { CheerioAPI } from "cheerio/slim";

export interface OutlineBlock {
  kind: "heading" | "text" | "button";
  text: string;
  /** Headings: 1 for h1, 2 for h2, 3 for h3. */
  level?: number;
}

export interface PageOutline {
  /** In document order; at most MAX_BLOCKS. */
  blocks: OutlineBlock[];
}

const MAX_BLOCKS = 40;
const MAX_TEXT = 200;
const MIN_TEXT_CHARS = 3;

// A link reads as a button when it is styled as one or asks for an action in a few words.
const BUTTON_CLASS = /\b(btn|button|cta)\b/i;
const ACTION_WORDS =
  /^(start|get|try|buy|shop|order|book|join|sign ?up|subscribe|download|claim|grab|reserve|register|call|contact|request|see|discover|learn|explore)\b/i;
const MAX_LINK_WORDS = 6;

function tidy(text: string): string {
  const value = text.replace(/\s+/g, " ").trim();
  return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT - 1)}…` : value;
}

export function readPageOutline($: CheerioAPI): PageOutline {
  const blocks: OutlineBlock[] = [];
  const push = (block: OutlineBlock) => {
    if (block.text.replace(/[^\p{L}\p{N}]/gu, "").length < MIN_TEXT_CHARS) return;
    const last = blocks.at(-1);
    if (last && last.kind === block.kind && last.text === block.text) return;
    if (blocks.length < MAX_BLOCKS) blocks.push(block);
  };
  $("body")
    .find("h1, h2, h3, p, li, blockquote, button, a, input[type=submit], input[type=button]")
    .each((_, element) => {
      const node = $(element);
      if (node.closest("nav, footer, script, style, noscript, template, [hidden], [aria-hidden=true]").length) return;
      const tag = element.tagName.toLowerCase();
      if (tag === "h1" || tag === "h2" || tag === "h3") {
        push({ kind: "heading", level: Number(tag.slice(1)), text: tidy(node.text()) });
        return;
      }
      if (tag === "input") {
        push({ kind: "button", text: tidy(node.attr("value") ?? "") });
        return;
      }
      if (tag === "button" || tag === "a") {
        const text = tidy(node.text());
        const styled = BUTTON_CLASS.test(node.attr("class") ?? "") || node.attr("role") === "button" || tag === "button";
        const asks = ACTION_WORDS.test(text) && text.split(" ").length <= MAX_LINK_WORDS;
        if (styled || asks) push({ kind: "button", text });
        return;
      }
      // Text blocks: without the buttons inside them (those are read on their own), and not a list item
      // that only wraps a link.
      const copy = node.clone();
      copy.find("a, button, h1, h2, h3").remove();
      push({ kind: "text", text: tidy(copy.text()) });
    });
  return { blocks };
}

// One line of ad copy, made fit to show: tidied (no ellipsis, no "..", no brand said twice, a question
// keeps its question mark) and, when too long, shortened only where a clause ends (a comma, a dash, an
// "and"/"with" joint), never in the middle of one and never leaving a dangling "with".

const collapse = (text: string) => text.replace(/\s+/g, " ").trim();

/** Words a line cannot end on: what follows them was cut off ("stainless steel with"). */
const DANGLING =
  /[\s,;:–—-]+(?:with|and|or|but|nor|for|to|of|the|a|an|in|on|at|by|from|that|which|who|whose|so|your|our|its|their|my|than|as|into|onto|plus|via|while|because|if|when|&)?$/;

/** Joints where a clause may end: punctuation, or a word that starts a new clause or an add-on. */
const BOUNDARY = /\s*[,;:–—]\s+|\s+-\s+|\s+(?=(?:and|with|while|plus|so|but|because|which|whereas|without|from|for|until|since)\s)/giu;

/** A line that asks: a wh-word with a verb after it, or an auxiliary verb first. */
const ASKS =
  /^(?:(?:how|what|why|when|where|who|which|whose)\b.*\b(?:is|are|was|were|do|does|did|can|could|will|would|should|has|have|long|much|many)\b|(?:does|did|is|are|can|could|will|would|should|ever|isn't|aren't|doesn't|don't|won't|can't)\s+\S+\s+\S+)/i;

const stripDangling = (text: string) => {
  let line = text;
  for (let previous = ""; previous !== line; ) {
    previous = line;
    line = line.replace(DANGLING, "");
  }
  return line;
};

/** The sentence's closing mark ("?", "!", "."), if it has one. */
const terminal = (text: string) => text.match(/[?!.]$/)?.[0] ?? "";

/**
 * Tidies a line for the screen: never an ellipsis (a trailing "…" or "..." and the clause it cut are taken
 * off), no "..", the brand name said once, and a question ends with its question mark.
 */
export function cleanLine(text: string, brand?: string | null): string {
  let line = collapse(text);
  if (/(?:…|\.{3,})$/.test(line)) {
    // A line someone cut: keep what ends at a clause, never the stub.
    line = stripDangling(line.replace(/\s*(?:…|\.{3,})$/, ""));
  }
  line = line.replace(/\s*…\s*/g, " ").replace(/\.{3,}/g, ".");
  // "…stainless steel with." was cut too: the joint word goes with its mark.
  if (/[.,;:]$/.test(line) && DANGLING.test(line.slice(0, -1)) && /\s\S+$/.test(line.slice(0, -1))) {
    const kept = stripDangling(line.slice(0, -1));
    if (kept !== line.slice(0, -1)) line = kept;
  }
  if (brand) {
    const name = collapse(brand);
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    // "Glacier Bottle Co. Glacier Bottle Co." → once.
    line = line.replace(new RegExp(`(${escaped})(?:[\\s,:;–—-]*${escaped})+`, "gi"), "$1");
  }
  // "Co.." or "keep?." : one closing mark.
  line = line
    .replace(/\.\.(?!\.)/g, ".")
    .replace(/([?!])\.+/g, "$1")
    .replace(/\.([?!])/g, "$1");
  line = collapse(line);
  if (ASKS.test(line) && !/[?!]$/.test(line)) line = `${line.replace(/[.,;:]+$/, "")}?`;
  return line;
}

/**
 * The line, then each shorter version that ends where a clause ends (longest first), with the line's own
 * closing mark. A cut keeps at least two words and ten characters; nothing else is offered.
 */
export function clauseCuts(text: string): string[] {
  const line = collapse(text);
  const mark = terminal(line);
  const keepMark = mark === "?" || mark === "!" ? mark : "";
  const cuts: string[] = [line];
  for (const match of line.matchAll(BOUNDARY)) {
    const head = stripDangling(line.slice(0, match.index).replace(/[\s,;:–—-]+$/, ""));
    // A cut inside brackets or quotes would leave one open.
    const open = (head.match(/[("“]/g)?.length ?? 0) - (head.match(/[)"”]/g)?.length ?? 0);
    if (open > 0) continue;
    if (head.split(" ").length < 2 || head.length < 10) continue;
    const cut = `${head.replace(/[.]+$/, "")}${keepMark}`;
    if (!cuts.includes(cut)) cuts.push(cut);
  }
  return cuts.sort((a, b) => b.length - a.length);
}

/** The longest clause cut of `text` in at most `max` characters, or null when no clause ends in time. */
export function shortenAtClause(text: string, max: number): string | null {
  return clauseCuts(text).find((cut) => cut.length <= max) ?? null;
}

/**
 * A short name or label from `text` (a product, an audience) in at most `max` characters: a clause cut, else
 * its first words that fit, without a dangling "with" (a label, not a sentence: no ellipsis either way).
 */
export function shortLabel(text: string, max: number): string {
  const line = collapse(text);
  if (line.length <= max) return line;
  const cut = shortenAtClause(line, max);
  if (cut) return cut;
  const words = stripDangling(line.slice(0, max + 1).replace(/\s+\S*$/, "")).replace(/[.,;:–—-]+$/, "");
  return words || (line.split(" ")[0] ?? line);
}

/** Verbs a benefit may start with (base form); "Keeps drinks cold" is one with its "s". */
const VERB =
  /^(keep|make|help|give|let|bring|turn|take|save|get|put|wake|cool|clean|ship|stay|last|hold|fit|work|protect|deliver|cut|boost|stop|end|fix|turn|feel|look|sleep|run|go|audit|book|buy|shop|order|try|start|join|find|see|grow|build|send|track|plan|charge|brew|cook|bake|wash|dry|block|remove|lower|raise|double|halve|reduce|improve|earn|win|learn|discover|meet|taste|enjoy|love|skip|beat|avoid|check|call|visit|download|sign|save)(s|es)?$/i;

/**
 * The problem a benefit solves, as a question the viewer would say yes to, or null when no grammatical one
 * can be made: "Coffee that lasts" → "Want coffee that lasts?"; "Keeps drinks cold all day" → "Need
 * something that keeps drinks cold all day?"; "Audit our shop page" (an instruction) → "Ready to audit our
 * shop page?"; a statement with its own subject ("We ship fast") → null.
 */
export function questionFromBenefit(benefit: string): string | null {
  const core = collapse(benefit).replace(/[.!?…]+$/, "");
  if (!core || /\?$/.test(benefit.trim())) return benefit.trim() || null;
  const first = core.split(" ")[0] ?? "";
  const lower = `${core.charAt(0).toLowerCase()}${core.slice(1)}`;
  const verb = first.match(VERB);
  if (verb) return verb[2] ? `Need something that ${lower}?` : `Ready to ${lower}?`;
  // A sentence with its own verb after the subject ("Our bottle keeps...", "We ship...") is not a wish.
  if (/^(we|i|you|they|it|this|our|my|your)\b/i.test(core)) return null;
  if (/^(a|an|the)\s/i.test(core) || /\b(is|are|was|were|has|have|will)\b/i.test(core)) return null;
  return `Want ${lower}?`;
}

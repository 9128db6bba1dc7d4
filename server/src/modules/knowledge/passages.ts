// The knowledge index: each item's text cut into passages of a few sentences, each with a tsvector
// (PostgreSQL full-text search, the same on PGlite and a PostgreSQL server) under a GIN index.
// Retrieval ranks passages with ts_rank against any of the query's words.
import { randomUUID } from "node:crypto";
import type { Tx } from "../../request-context.ts";

/** Longest passage, in characters: a few sentences, enough to carry one fact with its context. */
const PASSAGE_MAX = 600;
const MAX_PASSAGES_PER_ITEM = 2000;

/** The text's non-empty lines, one at a time. */
function* paragraphs(text: string): Generator<string> {
  for (let start = 0; start < text.length; ) {
    const end = text.indexOf("\n", start);
    const stop = end < 0 ? text.length : end;
    if (stop > start) yield text.slice(start, stop);
    start = stop + 1;
  }
}

/**
 * Text cut into passages: each paragraph (line) on its own, so a passage keeps to one subject; a long
 * paragraph is cut between sentences (or, for a sentence longer than PASSAGE_MAX, between words).
 */
export function splitPassages(text: string): string[] {
  const passages: string[] = [];
  // Paragraphs one at a time, stopping at the cap: a capped item's two million characters are never all cut.
  for (const line of paragraphs(text)) {
    const room = MAX_PASSAGES_PER_ITEM - passages.length;
    if (room <= 0) break;
    // What the passages left can hold, at most: a two-million-character line is not all split.
    const paragraph = line.slice(0, room * (PASSAGE_MAX + 1));
    const sentences = paragraph
      .split(/(?<=[.!?])\s+/)
      .map((s) => s.replace(/\s+/g, " ").trim())
      .filter((s) => /[\p{L}\p{N}]/u.test(s))
      .flatMap((s) =>
        s.length <= PASSAGE_MAX ? [s] : (s.match(new RegExp(`.{1,${PASSAGE_MAX}}(?:\\s|$)`, "g")) ?? [s]).map((p) => p.trim()),
      );
    let current = "";
    for (const sentence of sentences) {
      if (current && current.length + sentence.length + 1 > PASSAGE_MAX) {
        passages.push(current);
        current = sentence;
      } else current = current ? `${current} ${sentence}` : sentence;
    }
    if (current) passages.push(current);
  }
  return passages.slice(0, MAX_PASSAGES_PER_ITEM);
}

/** Passages written per statement. */
const INSERT_BATCH = 100;

/**
 * Replaces an item's passages with those of `text` (call inside a transaction). They are written a batch
 * per statement, with a turn of the event loop between batches: on the embedded database a query runs on
 * this thread, and two thousand of them back to back held every request for seconds.
 */
export async function indexPassages(tx: Tx, item: { id: string; userId: string }, text: string): Promise<number> {
  await tx.$executeRaw`DELETE FROM knowledge_passages WHERE item_id = ${item.id}`;
  const passages = splitPassages(text);
  for (let from = 0; from < passages.length; from += INSERT_BATCH) {
    const batch = passages.slice(from, from + INSERT_BATCH);
    const ids = batch.map(() => randomUUID());
    const ordinals = batch.map((_, i) => from + i);
    await tx.$executeRaw`INSERT INTO knowledge_passages (id, item_id, user_id, ordinal, text, search)
      SELECT p.id, ${item.id}, ${item.userId}, p.ordinal, p.text, to_tsvector('english', p.text)
      FROM unnest(${ids}::text[], ${ordinals}::int[], ${batch}::text[]) AS p(id, ordinal, text)`;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return passages.length;
}

export interface RankedPassage {
  itemId: string;
  name: string;
  passage: string;
  rank: number;
}

/**
 * The account's passages that best match `query` (any of its words, stemmed; stop words ignored), best
 * first. Only ready items count.
 */
export async function searchPassages(db: Tx, userId: string, query: string, limit = 5): Promise<RankedPassage[]> {
  const words = query.replace(/[^\p{L}\p{N}\s'-]/gu, " ").slice(0, 4000);
  if (!words.trim()) return [];
  const rows = await db.$queryRaw<{ item_id: string; name: string; text: string; rank: number }[]>`
    SELECT p.item_id, i.name, p.text, ts_rank(p.search, q.query) AS rank
    FROM knowledge_passages p
    JOIN knowledge_items i ON i.id = p.item_id,
    LATERAL (SELECT replace(plainto_tsquery('english', ${words})::text, '&', '|')::tsquery AS query) q
    WHERE p.user_id = ${userId} AND i.status = 'ready' AND p.search @@ q.query
    ORDER BY rank DESC, p.ordinal ASC
    LIMIT ${limit}`;
  return rows.map((r) => ({ itemId: r.item_id, name: r.name, passage: r.text, rank: Number(r.rank) }));
}

// How many characters a review field holds against its limit (said in words to a screen reader).
import { formatNumber } from "../../lib/format.ts";

export function Counter({ id, length, limit }: { id: string; length: number; limit: number }) {
  const over = length > limit;
  const near = !over && length >= limit * 0.9;
  return (
    <span id={id} className={`review-count${over ? " is-over" : near ? " is-near" : ""}`}>
      <span className="visually-hidden">Characters used: </span>
      {formatNumber(length)}/{formatNumber(limit)}
    </span>
  );
}

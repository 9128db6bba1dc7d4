// "How we read your brief": each sentence of the brief with what it was read as, so a user can see why
// a line appeared on screen (copy, tagline, call to action) or did not (direction, tone).
import type { BriefReading as Reading } from "@adgen/schema";

const KIND_LABEL: Record<Reading[number]["kind"], string> = {
  copy: "Copy: may be said",
  tagline: "Tagline: said word for word",
  cta: "Call to action: word for word",
  direction: "Direction: camera and pacing, never shown",
  tone: "Tone: the voice, never shown",
};

export function BriefReading({ reading }: { reading: Reading }) {
  return (
    <section className="result-section" aria-labelledby="brief-reading-title" data-testid="brief-reading">
      <h3 id="brief-reading-title" className="result-section-title">
        How we read your brief
      </h3>
      <ul className="brief-reading">
        {reading.map((read) => (
          <li
            key={`${read.from}:${read.kind}:${read.sentence}`}
            className={`brief-reading-item brief-kind-${read.kind}`}
            data-testid="brief-sentence"
          >
            <span className="brief-reading-kind" data-kind={read.kind}>
              {KIND_LABEL[read.kind]}
            </span>
            <q className="brief-reading-sentence">{read.sentence}</q>
          </li>
        ))}
      </ul>
    </section>
  );
}

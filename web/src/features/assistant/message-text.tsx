// An assistant answer's text, with the links it gives ("[Open the project](/studio/jobs/…)") as links to
// the pages they name. Only the SPA's own paths become links; anything else stays text.
import { Link } from "wouter";

const LINK = /\[([^\]\n]{1,120})\]\((\/[A-Za-z0-9/_#?=&.-]*)\)/g;

export function MessageText({ text }: { text: string }) {
  const parts: (string | { label: string; href: string })[] = [];
  let at = 0;
  for (const match of text.matchAll(LINK)) {
    parts.push(text.slice(at, match.index));
    parts.push({ label: match[1]!, href: match[2]! });
    at = match.index + match[0].length;
  }
  parts.push(text.slice(at));
  return (
    <>
      {parts.map((part, i) =>
        typeof part === "string" ? (
          part
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text never move.
          <Link key={i} href={part.href} data-testid="assistant-link">
            {part.label}
          </Link>
        ),
      )}
    </>
  );
}

// What the person's name bar says (the renderer draws Persona.name and .label as given): a presenter's name
// as it was given with their consent, over the brand they speak for; never a placeholder such as
// "Presenter" shown as if it were a name. A creator's selfie carries a handle made from the person's name.
import type { Persona } from "../../render/types.ts";

/** `Acme Coffee Co.` → `@acmecoffee` (the first two words, at most 20 characters). */
export function handleOf(name: string): string {
  const slug = name
    .normalize("NFKD")
    .toLowerCase()
    .split(/\s+/)
    .slice(0, 2)
    .join("")
    .replace(/[^a-z0-9]+/g, "")
    .slice(0, 20);
  return `@${slug || "creator"}`;
}

/**
 * The persona for a narrated style. `person` is the presenter's name from their consent (absent for a
 * stock presenter, whose bar then names only the brand, with no second line).
 */
export function personaFor(
  style: "presenter" | "selfie",
  brand: string,
  person: string | undefined,
  media: { videoKey?: string; photoKey?: string },
): Persona {
  const name = person?.trim();
  if (style === "presenter")
    return name ? { kind: "presenter", name, label: brand, ...media } : { kind: "presenter", name: brand, label: "", ...media };
  return { kind: "selfie", name: handleOf(name || brand), ...media };
}

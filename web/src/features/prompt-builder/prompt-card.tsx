// The built prompt: positive and negative, the way into the studio with it, and the same prompt
// formatted for each model family.
import { Link } from "wouter";
import type { BuiltPrompt } from "./prompt-form.ts";
import { PromptText } from "./prompt-text.tsx";
import { studioHref, useModelPrompt } from "./studio-links.ts";

export function PromptCard({ builder, subject, result }: { builder: string; subject: string; result: BuiltPrompt }) {
  const modelPrompt = useModelPrompt(builder);
  return (
    <section className="card studio-summary" aria-label="Prompt" data-testid="pb-prompt">
      <PromptText label="Positive prompt" text={result.positive} testId="pb-positive" />
      <PromptText label="Negative prompt" text={result.negative} testId="pb-negative-text" />
      <div className="pb-use">
        <Link href={studioHref(builder, subject, result.positive)} className="btn btn-primary btn-small" data-testid="pb-use-in-studio">
          Make an ad with this prompt
        </Link>
        {modelPrompt ? (
          <Link
            href={studioHref(builder, subject, result.positive, modelPrompt)}
            className="btn btn-secondary btn-small"
            data-testid={`pb-use-as-${modelPrompt}-prompt`}
          >
            Use it as the {modelPrompt} prompt
          </Link>
        ) : null}
        <p className="field-hint">
          Opens the Studio with your subject as the concept and this prompt as the direction notes
          {modelPrompt ? `, or as the prompt each generated ${modelPrompt === "picture" ? "picture is drawn from" : "clip follows"}` : ""}
          {"; you see the price before you launch."}
        </p>
      </div>
      <details>
        <summary className="field-label" style={{ cursor: "pointer" }}>
          Formatted for each model family
        </summary>
        <div style={{ display: "grid", gap: 12, marginTop: 10 }}>
          {(Object.keys(result.formatted) as (keyof BuiltPrompt["formatted"])[]).map((family) => (
            <PromptText
              key={family}
              label={FAMILY_LABELS[family] ?? family}
              text={result.formatted[family]}
              testId={`pb-formatted-${family}`}
            />
          ))}
        </div>
      </details>
    </section>
  );
}

const FAMILY_LABELS: Record<string, string> = {
  diffusion: "Image diffusion models (tags)",
  video: "Video models (shot description)",
  natural: "Natural-language models (sentences)",
};

// What a named cinematography style brings: its lighting, palette, camera and mood.
import type { PromptSchema } from "./prompt-form.ts";

export function StyleNote({
  style,
}: {
  style: PromptSchema["cinematographyStyles"][keyof PromptSchema["cinematographyStyles"]] | undefined;
}) {
  if (!style) return null;
  return (
    <p className="field-hint" data-testid="pb-style-note">
      <strong>{style.name}</strong>: {style.lighting}; {style.palette}; {style.camera}; {style.mood}.
    </p>
  );
}

// "Pause for my review": the storyboard is shown before anything renders (hitl).
import { FieldError } from "../../ui/form.tsx";
import { Toggle } from "../../ui/toggle.tsx";

interface ReviewToggleProps {
  id: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  timeoutSeconds: number;
  error: string | undefined;
}

export function ReviewToggle({ id, checked, onChange, timeoutSeconds, error }: ReviewToggleProps) {
  return (
    <>
      <Toggle
        id={id}
        label="Pause for my review"
        hint={`See the storyboard and its creative score before anything renders. Undecided after ${formatHours(timeoutSeconds)}, the run is refunded.`}
        checked={checked}
        onChange={onChange}
        testId="field-hitl"
      />
      <FieldError error={error} testId="field-error-hitl" />
    </>
  );
}

function formatHours(seconds: number): string {
  const hours = seconds / 3600;
  if (hours >= 1) return `${Math.round(hours * 10) / 10} hours`;
  return `${Math.max(1, Math.round(seconds / 60))} minutes`;
}

// What the ad should say: the concept, with its length against the limit as the user types.
import type { FieldNeed, WorkflowType } from "@adgen/schema";
import { TextArea } from "../../ui/text-area.tsx";
import { CONCEPT_PLACEHOLDER } from "./labels.ts";

interface ConceptFieldProps {
  id: string;
  type: WorkflowType;
  need: FieldNeed;
  max: number;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}

export function ConceptField({ id, type, need, max, value, onChange, error }: ConceptFieldProps) {
  return (
    <TextArea
      id={id}
      label={
        <>
          Concept <span className="muted field-optional">{need}</span>
        </>
      }
      name="concept"
      rows={5}
      placeholder={CONCEPT_PLACEHOLDER[type] ?? "What should the ad say and show?"}
      value={value}
      onChange={onChange}
      error={error}
      errorTestId="field-error-concept"
      counter={{ max, testId: "concept-count" }}
      testId="field-concept"
    />
  );
}

// The prompt builder's form: its fields, the request they describe, and what the shared schema says is
// wrong with it before it is sent.
import { BuildPromptInput } from "@adgen/schema";
import { issuesToFieldErrors } from "../../lib/errors.ts";
import type { RouterOutputs } from "../../trpc.ts";

export type PromptSchema = RouterOutputs["promptBuilder"]["schema"];
export type BuiltPrompt = RouterOutputs["promptBuilder"]["build"];

export const FIELDS = ["builder", "subject", "context", "style", "quality", "lighting", "camera", "negative"] as const;
export type FormField = (typeof FIELDS)[number];

export interface FormState {
  builder: string;
  subject: string;
  context: string;
  styleId: string;
  styleText: string;
  quality: string;
  lighting: string;
  lens: string;
  shotSize: string;
  angle: string;
  movement: string;
  cameraText: string;
  negative: string;
}

export const INITIAL: FormState = {
  builder: "image",
  subject: "",
  context: "",
  styleId: "",
  styleText: "",
  quality: "",
  lighting: "",
  lens: "",
  shotSize: "",
  angle: "",
  movement: "",
  cameraText: "",
  negative: "",
};

/** The request the form describes: style free text wins over the list; camera parts joined. */
export function toRequest(form: FormState, video: boolean) {
  const camera = [form.lens, form.shotSize, form.angle, video ? form.movement : "", form.cameraText.trim()].filter(Boolean).join(", ");
  const negative = form.negative
    .split(/[,\n]/)
    .map((n) => n.trim())
    .filter(Boolean);
  const optional = (value: string) => (value.trim() ? value : undefined);
  return {
    builder: form.builder,
    params: {
      subject: form.subject,
      context: optional(form.context),
      style: optional(form.styleText) ?? optional(form.styleId),
      quality: optional(form.quality),
      lighting: optional(form.lighting),
      camera: optional(camera),
      negative: negative.length ? negative : undefined,
    },
  };
}

/** Field messages from the shared schema's issues (paths `params.subject` → `subject`). */
export function localErrors(request: ReturnType<typeof toRequest>) {
  const result = BuildPromptInput.safeParse(request);
  if (result.success) return { fields: {}, form: null };
  const issues = result.error.issues.map((issue) => ({
    ...issue,
    path: issue.path[0] === "params" ? issue.path.slice(1) : issue.path,
  }));
  return issuesToFieldErrors<FormField>(issues, FIELDS);
}

/** One builder's published description: its fields, defaults and recommended styles. */
export type PromptSpec = PromptSchema["schemas"][keyof PromptSchema["schemas"]];
/** Sets one field of the form. */
export type SetField = <K extends keyof FormState>(key: K, value: FormState[K]) => void;

/** What each group of the form's fields is given: the form, how to change it, and the errors by field. */
export interface FieldGroupProps {
  uid: string;
  schema: PromptSchema;
  spec: PromptSpec;
  form: FormState;
  set: SetField;
  errorFor: (field: FormField) => string | undefined;
}

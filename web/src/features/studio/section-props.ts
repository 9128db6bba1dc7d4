// What both studio steps (the details and the options) are handed by the form: one bundle, passed as one prop.
import type { StudioFields } from "@adgen/schema";
import type { Brand, FormErrors, FormState, StudioConfig } from "./form-state.ts";
import type { UpdateField } from "./use-form-state.ts";

export interface StudioSection {
  uid: string;
  studio: StudioConfig;
  brand: Brand | null;
  state: FormState;
  uses: StudioFields;
  errors: FormErrors["fields"];
  update: UpdateField;
}

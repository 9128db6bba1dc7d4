// promptBuilder.*: the zero-token prompt builder (SPEC 4.6). Public, and free: no model is called; the
// schema is static data and a build is deterministic text work (`buildPrompt`).
import { BuildPromptInput, BuiltPrompt, PromptSchema } from "@adgen/schema";
import { buildPrompt, getPromptSchema } from "../modules/prompt-builder/build-prompt.ts";
import { defineOperation, NoInput } from "./operation.ts";

export const promptBuilderOperations = {
  schema: defineOperation({
    summary: "The prompt builders' field schemas, camera specs, cinematography styles and lexicon",
    access: "public",
    kind: "query",
    input: NoInput,
    output: PromptSchema,
    rest: { method: "GET", path: "/prompt-builder", tag: "Prompt builder" },
    handler: () => getPromptSchema(),
  }),
  build: defineOperation({
    summary: "Build a structured prompt for a builder, with a 0–100 score, its breakdown and suggestions",
    access: "public",
    kind: "mutation",
    input: BuildPromptInput,
    output: BuiltPrompt,
    rest: {
      method: "POST",
      path: "/prompt-builder",
      tag: "Prompt builder",
      errors: { 400: "Invalid builder or params (the message names the field)" },
    },
    handler: (_ctx, input) => buildPrompt(input.builder, input.params),
  }),
};

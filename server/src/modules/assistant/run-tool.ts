// Running the assistant's tools, for both assistants: as the invocation path runs an operation, the
// caller is admitted first (for every operation the tool stands for), then the arguments are checked,
// then the domain runs. A refusal, bad arguments and the domain's 4xx become the tool's result, so the
// answer can say what went wrong; other failures propagate.
import { z } from "zod";
import { AppError } from "../../errors.ts";
import type { Services } from "../../request-context.ts";
import type { AssistantUser } from "./assistant-user.ts";
import { CONFIRM_LAUNCH, refusalOf, type ToolStandIn } from "./tool-gate.ts";
import { ASSISTANT_TOOLS, type TurnState, toolByName } from "./tools.ts";

/** Every tool the assistant may run: the models' and the confirmation of a launch. */
export const EVERY_TOOL: readonly ToolStandIn[] = [...ASSISTANT_TOOLS, CONFIRM_LAUNCH];

/** The tools as a language model is offered them (JSON Schema parameters). */
export function toolSpecs() {
  return ASSISTANT_TOOLS.map((tool) => ({
    name: tool.name,
    description: tool.description,
    parameters: z.toJSONSchema(tool.args, { io: "input" }) as Record<string, unknown>,
  }));
}

/** Runs a tool by name with arguments from either assistant (what each failure becomes: above). */
export async function runTool(
  services: Services,
  user: AssistantUser,
  name: string,
  rawArgs: unknown,
  turn: TurnState,
): Promise<{ arguments: Record<string, unknown>; result: unknown }> {
  const args = (rawArgs && typeof rawArgs === "object" ? rawArgs : {}) as Record<string, unknown>;
  const tool = toolByName.get(name);
  if (!tool) return { arguments: args, result: { error: `There is no tool named ${name}` } };
  const refusal = await refusalOf(user, tool);
  if (refusal) return { arguments: args, result: refusal };
  const parsed = tool.args.safeParse(args);
  if (!parsed.success)
    return {
      arguments: args,
      result: { error: parsed.error.issues.map((i) => `${i.path.join(".") || "arguments"}: ${i.message}`).join("; ") },
    };
  try {
    return { arguments: args, result: await tool.run(services, user, parsed.data, turn) };
  } catch (error) {
    if (error instanceof AppError && error.status < 500) return { arguments: args, result: { error: error.message } };
    throw error;
  }
}

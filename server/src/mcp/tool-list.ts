// The MCP tools, derived from the operation catalogue: one tool per operation, named from the operation's name
// (`workflow.launch` → `workflow_launch`: dots are not in every client's tool-name alphabet), described by its
// summary, annotated from its kind and REST method, with the JSON Schema of its zod input and output. Nothing
// here is written per operation except which ones spend credits (spending.ts) and what a stream tool adds.
import { z } from "zod";
import type { RequestContext } from "../request-context.ts";
import { type JsonSchema, mergeAllOf, toJsonSchema } from "../graphql/catalogue/json-schema.ts";
import { operations } from "../operations/catalogue.ts";
import type { AnyOperation } from "../operations/operation.ts";
import { spendingRuleOf } from "./spending.ts";

/** Kinds an analytics (read-only) key may not call, as invoke.ts's `authorize` says. */
const WRITES = new Set(["mutation", "upload"]);

/** How long a stream tool waits for its events at most, unless the call asks for less. */
export const STREAM_WAIT_MAX_SECONDS = 300;
export const STREAM_WAIT_DEFAULT_SECONDS = 60;

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema & { type: "object" };
  outputSchema?: JsonSchema & { type: "object" };
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

export const toolNameOf = (operationName: string) => operationName.replace(/\./g, "_");

/** Why an operation is not a tool (a file upload is multipart: it travels over REST only), or null. */
export function notAToolBecause(operation: AnyOperation): string | null {
  if (operation.kind === "upload") return operation.trpc?.none ?? "A file upload travels over REST only (multipart)";
  return null;
}

/** The operations a tool list shows to this caller: admin tools only to admins, writes not to a read-only key. */
export function operationsFor(ctx: RequestContext): AnyOperation[] {
  const admin = ctx.auth?.user.role === "admin";
  const readOnly = ctx.auth?.apiKey?.scope === "analytics";
  return operations.filter((op) => notAToolBecause(op) === null && (op.access !== "admin" || admin) && !(readOnly && WRITES.has(op.kind)));
}

const byToolName = new Map(operations.map((op) => [toolNameOf(op.name), op]));
export const operationOfTool = (name: string): AnyOperation | undefined => byToolName.get(name);

/** An object schema (MCP requires one at the root): intersections merged, anything else wrapped in `result`. */
function objectSchema(schema: JsonSchema): JsonSchema & { type: "object" } {
  const merged = mergeAllOf(schema);
  if (merged.type === "object") return merged as JsonSchema & { type: "object" };
  return { type: "object", properties: { result: merged }, required: ["result"] };
}

/** Whether an output's structured content is wrapped in `{ result }` (its schema is not an object). */
const wrapped = new Map<string, boolean>();
export function wrapsOutput(operation: AnyOperation): boolean {
  let wraps = wrapped.get(operation.name);
  if (wraps === undefined) {
    wraps = operation.output !== null && mergeAllOf(toJsonSchema(operation.output, "output")).type !== "object";
    wrapped.set(operation.name, wraps);
  }
  return wraps;
}

const streamWait = {
  waitSeconds: {
    type: "integer",
    description: `How long to wait for events, in seconds (default ${STREAM_WAIT_DEFAULT_SECONDS}, at most ${STREAM_WAIT_MAX_SECONDS}); the tool returns when the stream ends or the time is up`,
  } as JsonSchema,
};

function inputSchemaOf(operation: AnyOperation): JsonSchema & { type: "object" } {
  const schema = objectSchema(toJsonSchema(operation.input, "input"));
  const properties = { ...(schema.properties ?? {}) };
  const spending = spendingRuleOf(operation.name);
  if (spending) properties.confirmCost = spending.confirmSchema;
  if (operation.kind === "subscription") Object.assign(properties, streamWait);
  const required = [...(schema.required ?? []), ...(spending ? ["confirmCost"] : [])];
  return { ...schema, properties, ...(required.length ? { required } : {}) };
}

function outputSchemaOf(operation: AnyOperation): (JsonSchema & { type: "object" }) | undefined {
  if (!operation.output) return undefined;
  const item = toJsonSchema(operation.output, "output");
  if (operation.kind === "subscription") {
    return {
      type: "object",
      properties: {
        events: { type: "array", items: item, description: "The stream's events, in order" },
        ended: { type: "boolean", description: "True when the stream ended (a job's result came); false when the wait was up" },
      },
      required: ["events", "ended"],
    };
  }
  return objectSchema(item);
}

function descriptionOf(operation: AnyOperation): string {
  const parts = [operation.summary.endsWith(".") ? operation.summary : `${operation.summary}.`];
  const spending = spendingRuleOf(operation.name);
  if (spending) parts.push(spending.describe);
  if (operation.kind === "subscription") {
    parts.push(
      "Waits for the stream's events and answers them together; each event is also sent as a progress notification while you wait.",
    );
  }
  if (operation.kind === "download") parts.push("Answers the file as an embedded resource (with its MIME type).");
  if ("method" in operation.rest) parts.push(`Same as REST ${operation.rest.method} /api${operation.rest.path}.`);
  return parts.join(" ");
}

/** Tool definitions by operation name: the schemas are converted once per process, not on each listing. */
const made = new Map<string, ToolDefinition>();

export function toolOf(operation: AnyOperation): ToolDefinition {
  const known = made.get(operation.name);
  if (known) return known;
  const tool = makeTool(operation);
  made.set(operation.name, tool);
  return tool;
}

function makeTool(operation: AnyOperation): ToolDefinition {
  const method = "method" in operation.rest ? operation.rest.method : "POST";
  const readOnly = operation.kind === "query" || operation.kind === "subscription" || operation.kind === "download";
  const title = operation.summary.split(/[:.(]/)[0]!.trim();
  const outputSchema = outputSchemaOf(operation);
  return {
    name: toolNameOf(operation.name),
    title,
    description: descriptionOf(operation),
    inputSchema: inputSchemaOf(operation),
    ...(outputSchema ? { outputSchema } : {}),
    annotations: {
      title,
      readOnlyHint: readOnly,
      destructiveHint: !readOnly && method === "DELETE",
      idempotentHint: readOnly || method === "PUT" || method === "DELETE",
      openWorldHint: false,
    },
  };
}

/** The tools this caller may call, in catalogue order. */
export const toolsFor = (ctx: RequestContext): ToolDefinition[] => operationsFor(ctx).map(toolOf);

/** The wait a stream tool call asked for, bounded. */
export const StreamWait = z.number().int().min(1).max(STREAM_WAIT_MAX_SECONDS).default(STREAM_WAIT_DEFAULT_SECONDS);

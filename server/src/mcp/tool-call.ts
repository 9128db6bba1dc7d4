// One MCP tool call is one operation call: the arguments go through `invokeOperation` (authorization, the
// analytics key's scope, rate limit, validation, the domain), and the answer is encoded for MCP. A refusal
// (4xx) becomes a tool error whose text is the operation's own message, which says what to fix.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { RequestContext } from "../request-context.ts";
import { AppError } from "../errors.ts";
import { admit, invokeOperation } from "../operations/invoke.ts";
import { type AnyOperation, type FileResult, isFileResult, type OperationCall, type StreamItem } from "../operations/operation.ts";
import { jobResourceUri } from "./resources.ts";
import { spendingRuleOf } from "./spending.ts";
import { operationOfTool, StreamWait, wrapsOutput } from "./tool-list.ts";
import { fileBytes } from "./file-bytes.ts";

/** What the MCP session gives a call beside its arguments. */
export interface ToolCallMeans {
  ctx: RequestContext;
  call: OperationCall;
  /** Sends one progress notification (absent when the client asked for none). */
  progress?: (progress: number, total: number | undefined, message: string) => Promise<void>;
}

/** JSON as it goes over the wire (dates as ISO strings, no undefined). */
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value ?? null));

export function toolError(message: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: message }] };
}

/** A refusal in words: the status and the operation's message (with each invalid field). */
function refusalText(error: AppError): string {
  const fields = (error.details?.fields as { field: string; message: string }[] | undefined) ?? [];
  const named = fields.filter((f) => !error.message.includes(f.message)).map((f) => `${f.field}: ${f.message}`);
  return [`${error.status} ${error.message}`, ...named].join("\n");
}

export async function callTool(name: string, args: Record<string, unknown>, means: ToolCallMeans): Promise<CallToolResult> {
  const operation = operationOfTool(name);
  if (!operation) return toolError(`There is no tool named ${name}: list the tools to see the ones you may call.`);
  try {
    return await runOperation(operation, args, means);
  } catch (error) {
    if (error instanceof AppError && error.status < 500) return toolError(refusalText(error));
    if (error instanceof AppError) return toolError(`${error.status} ${error.message}`);
    means.ctx.services.logger.error({ err: error, operation: operation.name }, "MCP tool call failed");
    return toolError("500 Internal server error");
  }
}

async function runOperation(operation: AnyOperation, args: Record<string, unknown>, means: ToolCallMeans): Promise<CallToolResult> {
  const { ctx, call } = means;
  let { confirmCost, waitSeconds, ...input } = args;
  const spending = spendingRuleOf(operation.name);
  if (spending) {
    // Who may call it at all comes first: an analytics key learns no price for a launch it may not make.
    await admit(operation, ctx, call.headers);
    input = await spending.admit(ctx, call, input, confirmCost);
  } else if (confirmCost !== undefined) {
    input.confirmCost = confirmCost;
  }
  if (operation.kind !== "subscription" && waitSeconds !== undefined) input.waitSeconds = waitSeconds;
  const output = await invokeOperation({ operation, ctx, call, readInput: () => input });
  if (operation.kind === "subscription") return await collectStream(output as AsyncIterable<StreamItem>, waitSeconds, means);
  if (operation.kind === "download" && isFileResult(output)) return await fileAnswer(output);
  const structured = wrapsOutput(operation) ? { result: asJson(output) } : asJson(output);
  const content: CallToolResult["content"] = [{ type: "text", text: JSON.stringify(structured) }];
  const jobId = typeof structured?.jobId === "string" ? structured.jobId : null;
  // A launched or read job is also a resource the client can read and subscribe to.
  if (jobId) content.push({ type: "resource_link", uri: jobResourceUri(jobId), name: `job ${jobId}`, mimeType: "application/json" });
  return { content, structuredContent: structured };
}

/** A stream tool: its events until the stream ends or the wait is up, each sent as progress on the way. */
async function collectStream(items: AsyncIterable<StreamItem>, waitSeconds: unknown, means: ToolCallMeans): Promise<CallToolResult> {
  const wait = StreamWait.safeParse(waitSeconds ?? undefined);
  if (!wait.success) throw new AppError("BAD_REQUEST", "waitSeconds must be a whole number of seconds from 1 to 300");
  const events: unknown[] = [];
  const iterator = items[Symbol.asyncIterator]();
  const timeUp = new Promise<"time-up">((resolve) => setTimeout(() => resolve("time-up"), wait.data * 1000).unref());
  let ended = false;
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), timeUp]);
      if (next === "time-up") break;
      if (next.done) {
        ended = true;
        break;
      }
      const data = asJson(next.value.data);
      events.push(data);
      const percent = typeof data?.progress === "number" ? data.progress : undefined;
      const said = [next.value.event, data?.step, data?.status].filter((part) => typeof part === "string").join(" ");
      await means.progress?.(percent ?? events.length, percent === undefined ? undefined : 100, said);
    }
  } finally {
    void iterator.return?.();
  }
  const structured = { events, ended };
  return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
}

async function fileAnswer(file: FileResult): Promise<CallToolResult> {
  const bytes = await fileBytes(file);
  return {
    content: [
      {
        type: "resource",
        resource: { uri: `file:///${encodeURIComponent(file.filename)}`, mimeType: file.contentType, blob: bytes.toString("base64") },
      },
    ],
  };
}

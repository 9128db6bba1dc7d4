// The MCP server of one session: the official SDK's `Server`, answering from the operation catalogue. Who is
// asking is the credential of each request (over HTTP every request carries its bearer; `callerOf` reads it),
// so a revoked key or an expired JWT stops working at once, as it does on REST.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ServerNotification,
  type ServerRequest,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { AppError } from "../errors.ts";
import type { OperationCall } from "../operations/operation.ts";
import type { RequestContext } from "../request-context.ts";
import { getPrompt, promptList } from "./prompts.ts";
import { followJob, RESOURCE_TEMPLATES, readResource } from "./resources.ts";
import { callTool } from "./tool-call.ts";
import { toolsFor } from "./tool-list.ts";

export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Who is asking, for one MCP request: the request context and what a handler may ask of the transport. */
export type CallerOf = (extra: Extra) => Promise<{ ctx: RequestContext; call: OperationCall }>;

export const SERVER_INFO = { name: "adgen", title: "AdGen: video ads from the operation catalogue", version: "1.0.0" };

const INSTRUCTIONS =
  "Every tool is one operation of the AdGen service (the same as its REST, tRPC and GraphQL APIs). " +
  "workflow_preview is free: preview an ad's scenes, score and price before launching. " +
  "Tools that spend credits say so and need confirmCost equal to the price: ask the user first. " +
  "A launch answers the job at once; follow it with workflow_stream (progress notifications) or subscribe to adgen://jobs/{jobId}.";

/** A refusal as an MCP error: the status and the operation's message, which says what to fix. */
function asMcpError(error: unknown): unknown {
  if (!(error instanceof AppError)) return error;
  const code = error.status === 404 ? -32002 : error.status < 500 ? ErrorCode.InvalidParams : ErrorCode.InternalError;
  return new McpError(code, `${error.status} ${error.message}`);
}

export function createMcpServer(callerOf: CallerOf): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {}, resources: { subscribe: true }, prompts: {} },
    instructions: INSTRUCTIONS,
  });
  const following = new Map<string, AbortController>();

  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => {
    const { ctx } = await callerOf(extra);
    return { tools: toolsFor(ctx) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { ctx, call } = await callerOf(extra);
    const token = request.params._meta?.progressToken;
    const progress =
      token === undefined
        ? undefined
        : (value: number, total: number | undefined, message: string) =>
            extra.sendNotification({
              method: "notifications/progress",
              params: { progressToken: token, progress: value, ...(total === undefined ? {} : { total }), message },
            });
    return callTool(request.params.name, request.params.arguments ?? {}, { ctx, call, ...(progress ? { progress } : {}) });
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  // Jobs are many: they are read by id (from a launch's answer or projects), not enumerated here.
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [] }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const { ctx, call } = await callerOf(extra);
    try {
      return await readResource(request.params.uri, ctx, call);
    } catch (error) {
      throw asMcpError(error);
    }
  });

  server.setRequestHandler(SubscribeRequestSchema, async (request, extra) => {
    const { uri } = request.params;
    const { ctx, call } = await callerOf(extra);
    following.get(uri)?.abort();
    const controller = new AbortController();
    try {
      await followJob(uri, ctx, { ...call, signal: controller.signal }, (updated) => server.sendResourceUpdated({ uri: updated }));
    } catch (error) {
      throw asMcpError(error);
    }
    following.set(uri, controller);
    return {};
  });

  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    following.get(request.params.uri)?.abort();
    following.delete(request.params.uri);
    return {};
  });

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: promptList() }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    try {
      return getPrompt(request.params.name, request.params.arguments ?? {});
    } catch (error) {
      throw asMcpError(error);
    }
  });

  server.onclose = () => {
    for (const controller of following.values()) controller.abort();
    following.clear();
  };
  return server;
}

// The GraphQL schema, generated from the operation catalogue: each operation (downloads excepted) is a
// root field named after it (`workflow.launch` → `workflowLaunch`), a query, mutation or subscription by
// its kind, with its input's fields as arguments and its output schema as the field type. Resolvers only
// decode arguments and hand the call to the one invocation path.
import { type GraphQLFieldConfigMap, GraphQLObjectType, type GraphQLOutputType, GraphQLSchema, getNamedType } from "graphql";
import type { RequestContext } from "../context.ts";
import { openLiveStream } from "../modules/auth/live-streams.ts";
import { operations } from "../operations/catalogue.ts";
import { invokeOperation } from "../operations/invoke.ts";
import { mapPushSource, PUSH, type PushSource, pushSourceOf } from "../events/push-source.ts";
import type { AnyOperation, OperationCall, StreamItem } from "../operations/operation.ts";
import { argsToInput, fieldName, toJsonSchema, TypeRegistry } from "./zod-to-graphql.ts";

/** What every resolver receives: who is asking, and the request's headers. */
export interface GraphQLContext extends RequestContext {
  headers: Headers;
}

/** `workflow.launch` → `workflowLaunch`. */
export const graphqlFieldName = (operationName: string) => fieldName(operationName.replace(/\./g, "_"));

const typeName = (operationName: string) => graphqlFieldName(operationName).replace(/^./, (c) => c.toUpperCase());

function callFor(ctx: GraphQLContext, signal: AbortSignal): OperationCall {
  return {
    headers: ctx.headers,
    signal,
    // GraphQL clients authenticate with bearer tokens: a session comes back in the answer.
    credentials: "body",
    setCookie: () => {},
    setHeader: () => {},
  };
}

/**
 * An iterator over a subscription's events that aborts the operation's signal when the client
 * unsubscribes or the socket closes, even before the first event, so no bus listener outlives it.
 */
async function abortableStream(
  start: (signal: AbortSignal) => Promise<AsyncIterable<StreamItem>>,
): Promise<AsyncIterableIterator<unknown>> {
  const controller = new AbortController();
  let inner: AsyncIterator<StreamItem> | null = null;
  const opening = start(controller.signal).then((items) => {
    inner = items[Symbol.asyncIterator]();
    return inner;
  });
  // A refused subscription (401, 404, 429) fails here, as an error answer to the subscribe message.
  await opening;
  const finish = async () => {
    controller.abort();
    const iterator = inner ?? (await opening.catch(() => null));
    await iterator?.return?.(undefined);
    return { done: true as const, value: undefined };
  };
  const push = pushSourceOf<StreamItem>(inner);
  const iterator: AsyncIterableIterator<unknown> & { [PUSH]?: PushSource<unknown> } = {
    [Symbol.asyncIterator]() {
      return iterator;
    },
    // A stream that can be pushed stays so (graphql/pushed-subscription.ts): its events, without the SSE envelope.
    ...(push && { [PUSH]: mapPushSource(push, (item) => item.data) }),
    async next() {
      if (controller.signal.aborted) return { done: true, value: undefined };
      const result = await (await opening).next();
      return result.done ? { done: true, value: undefined } : { done: false, value: result.value.data };
    },
    return: finish,
    async throw(error: unknown) {
      await finish();
      throw error;
    },
  };
  return iterator;
}

/** Builds an output type's fields now (they are thunks), so its enums are named before any input's. */
function buildFields(type: GraphQLOutputType, seen = new Set<string>()): void {
  const named = getNamedType(type);
  if (!(named instanceof GraphQLObjectType) || seen.has(named.name)) return;
  seen.add(named.name);
  for (const field of Object.values(named.getFields())) buildFields(field.type, seen);
}

export function buildSchema(): GraphQLSchema {
  const registry = new TypeRegistry();
  const query: GraphQLFieldConfigMap<unknown, GraphQLContext> = {};
  const mutation: GraphQLFieldConfigMap<unknown, GraphQLContext> = {};
  const subscription: GraphQLFieldConfigMap<unknown, GraphQLContext> = {};
  const served = operations.filter((op) => !op.graphql && op.kind !== "download" && op.output);
  // Outputs first, so titled enums (Role, WorkflowType, …) get their names before inputs reuse them.
  // Root fields are nullable, as GraphQL advises: a refused field is null beside its error, and the other
  // fields of the same request keep their data.
  const outputs = new Map(served.map((op) => [op, registry.output(toJsonSchema(op.output!, "output"), typeName(op.name), true)]));
  for (const type of outputs.values()) buildFields(type);
  for (const op of served) {
    const inputSchema = toJsonSchema(op.input, "input");
    const field = {
      type: outputs.get(op)!,
      description: op.summary,
      args: registry.args(inputSchema, typeName(op.name)),
    };
    const run = (args: Record<string, unknown>, ctx: GraphQLContext, signal: AbortSignal) =>
      invokeOperation({ operation: op as AnyOperation, ctx, readInput: () => argsToInput(args, inputSchema), call: callFor(ctx, signal) });
    const name = graphqlFieldName(op.name);
    if (op.kind === "subscription") {
      subscription[name] = {
        ...field,
        // Ends, with the reason as its last error, when the credential that opened it does (logout, suspension…).
        subscribe: (_root, args, ctx: GraphQLContext) =>
          abortableStream((signal) => openLiveStream<StreamItem>(ctx, signal, (tied) => run(args, ctx, tied))),
        resolve: (event) => event,
      };
    } else {
      (op.kind === "query" ? query : mutation)[name] = {
        ...field,
        resolve: (_root, args, ctx: GraphQLContext) => run(args, ctx, new AbortController().signal),
      };
    }
  }
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: "Query", fields: query }),
    mutation: new GraphQLObjectType({ name: "Mutation", fields: mutation }),
    subscription: new GraphQLObjectType({ name: "Subscription", fields: subscription }),
  });
}

let built: GraphQLSchema | null = null;
/** The schema, built on first use: building it takes about 150 ms, which a start need not wait for. */
export function graphQLSchema(): GraphQLSchema {
  built ??= buildSchema();
  return built;
}

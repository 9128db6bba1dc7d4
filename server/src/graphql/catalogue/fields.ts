// The catalogue's operations as Pothos root fields: each operation (downloads excepted) is a field named
// after it (`workflow.launch` → `workflowLaunch`), a query, mutation or subscription by its kind, with
// its input's fields as arguments and its output schema as the field type. Resolvers only decode
// arguments and hand the call to the one invocation path (authenticate → authorize → rate limit →
// validate → domain). Root fields are nullable, as GraphQL advises: a refused field is null beside its
// error, and the other fields of the same request keep their data.
import { openLiveStream } from "../../modules/auth/live-streams.ts";
import { operations } from "../../operations/catalogue.ts";
import { invokeOperation } from "../../operations/invoke.ts";
import type { AnyOperation, OperationCall, StreamItem } from "../../operations/operation.ts";
import type { Builder, GraphQLContext } from "../builder.ts";
import { argsToInput } from "./args.ts";
import { typeJobEventResult } from "./job-event-result.ts";
import { toJsonSchema } from "./json-schema.ts";
import { graphqlFieldName, operationTypeName } from "./names.ts";
import { abortableStream } from "./stream.ts";
import { CatalogueTypes, inputOptions, outputOptions } from "./types.ts";

/** How a GraphQL request is handed to the invocation path. */
export function callFor(ctx: GraphQLContext, signal: AbortSignal): OperationCall {
  return {
    headers: ctx.headers,
    signal,
    // GraphQL clients authenticate with bearer tokens: a session comes back in the answer.
    credentials: "body",
    setCookie: () => {},
    setHeader: () => {},
  };
}

/** The operations GraphQL carries. */
export const graphqlOperations = () => operations.filter((op) => !op.graphql && op.kind !== "download" && op.output);

export function addCatalogueFields(builder: Builder): void {
  const types = new CatalogueTypes(builder);
  typeJobEventResult(builder, types);
  const served = graphqlOperations();
  // Outputs first, so titled enums (Role, WorkflowType, …) get their names before inputs reuse them.
  const outputs = new Map(served.map((op) => [op, types.output(toJsonSchema(op.output!, "output"), operationTypeName(op.name)).use]));
  for (const use of outputs.values()) types.settle(use);
  for (const op of served) {
    const inputSchema = toJsonSchema(op.input, "input");
    const args = types.args(inputSchema, operationTypeName(op.name));
    const run = (given: Record<string, unknown>, ctx: GraphQLContext, signal: AbortSignal) =>
      invokeOperation({ operation: op as AnyOperation, ctx, readInput: () => argsToInput(given, inputSchema), call: callFor(ctx, signal) });
    const field = (t: any) => ({
      ...outputOptions(outputs.get(op)!, true),
      description: op.summary,
      args: Object.fromEntries(args.map((arg) => [graphqlFieldNameOf(arg.key), t.arg(inputOptions(arg))])),
    });
    const name = graphqlFieldName(op.name);
    if (op.kind === "subscription") {
      builder.subscriptionField(name, (t: any) =>
        t.field({
          ...field(t),
          // Ends, with the reason as its last error, when the credential that opened it does (logout, suspension…).
          subscribe: (_root: unknown, given: Record<string, unknown>, ctx: GraphQLContext) =>
            abortableStream((signal) => openLiveStream<StreamItem>(ctx, signal, (tied) => run(given, ctx, tied))),
          resolve: (event: unknown) => event,
        }),
      );
    } else {
      const add = op.kind === "query" ? builder.queryField.bind(builder) : builder.mutationField.bind(builder);
      add(name, (t: any) =>
        t.field({
          ...field(t),
          resolve: (_root: unknown, given: Record<string, unknown>, ctx: GraphQLContext) => run(given, ctx, new AbortController().signal),
        }),
      );
    }
  }
  types.define();
}

const graphqlFieldNameOf = (key: string) => graphqlFieldName(key.replace(/\./g, "_"));

// GraphQL over HTTP (graphql-yoga) and over WebSocket (graphql-ws) with one schema, one context,
// the same depth/cost/alias limits, and domain errors turned into readable GraphQL errors.
import { maxAliasesPlugin } from "@escape.tech/graphql-armor-max-aliases";
import { blockFieldSuggestionsPlugin } from "@escape.tech/graphql-armor-block-field-suggestions";
import { maxTokensPlugin } from "@escape.tech/graphql-armor-max-tokens";
import {
  type ExecutionArgs,
  type ExecutionResult,
  type execute,
  GraphQLError,
  NoSchemaIntrospectionCustomRule,
  type subscribe,
} from "graphql";
import { createYoga } from "graphql-yoga";
import type { IncomingMessage } from "node:http";
import type { Server } from "node:http";
import type { Context, SubscribePayload } from "graphql-ws";
import { type Extra, useServer } from "graphql-ws/use/ws";
import { type WebSocket, WebSocketServer } from "ws";
import type { RequestContext, Services } from "../request-context.ts";
import { AppError } from "../errors.ts";
import { bodyLimitFor } from "../front-door/front-door.ts";
import { buildRequestContext } from "../front-door/context-from-headers.ts";
import type { Logger } from "../logging/logger.ts";
import { CredentialEndedError } from "../modules/auth/credential-revocation.ts";
import { logSocketOperation, type RequestTrace, startTrace } from "../logging/request-trace.ts";
import { costErrors, costLimitRule, pagesByVariable } from "./cost.ts";
import { depthLimitRule } from "./depth.ts";
import { type NodeBodyContext, useJsonBodyFromNode } from "./json-body-from-node.ts";
import { PARTNER_QUERIES } from "./partner-queries.ts";
import { BAD_USER_INPUT, relayArgumentErrors } from "./relay-arguments.ts";
import { subscribeSharing } from "./pushed-subscription.ts";
import { type GraphQLContext, graphQLSchema } from "./schema.ts";

export const GRAPHQL_LIMITS = { maxTokens: 2000, maxDepth: 8, maxCost: 5000, maxAliases: 15 };

/**
 * `instanceof GraphQLError` fails when graphql is loaded twice (its ESM and CJS builds side by side, as
 * under vitest, where yoga gets one and this file the other); every domain error then became a 500.
 */
function isGraphQLError(error: unknown): error is GraphQLError {
  return error instanceof GraphQLError || (error instanceof Error && error.name === "GraphQLError");
}

/**
 * What the Pothos plugins throw of a connection's or `node`'s arguments ('Argument "first" must be…',
 * 'Arguments "before" and "after"…', 'Invalid cursor…', 'Invalid global ID…'). Their other validation
 * errors (a resolver returning no list) are the schema's faults and stay masked.
 */
function isPothosArgumentError(error: unknown): error is Error {
  return (
    error instanceof Error &&
    error.name === "PothosValidationError" &&
    /^(Arguments? "|Invalid cursor|Invalid global ID|ID: )/.test(error.message)
  );
}

/** Masked faults and what they hid, logged once the request's id is known (`withRequestId`). */
const faults = new WeakMap<GraphQLError, unknown>();

function toGraphQLError(error: unknown): GraphQLError {
  const original = isGraphQLError(error) ? (error.originalError ?? error) : error;
  if (original instanceof AppError) {
    const limited = original.code === "TOO_MANY_REQUESTS";
    const fields = original.details?.fields;
    return new GraphQLError(original.message, {
      extensions: {
        code: limited ? "RATE_LIMITED" : original.code,
        status: original.status,
        ...(fields ? { fields } : {}),
        // yoga answers HTTP 429 when the request's only error is this one.
        ...(limited ? { http: { status: 429 } } : {}),
      },
      ...(isGraphQLError(error) ? { nodes: error.nodes, path: error.path } : {}),
    });
  }
  // The Pothos plugins' own argument checks (a cursor or count relay-arguments.ts let through): input, not faults.
  if (isPothosArgumentError(original)) {
    return new GraphQLError(original.message, {
      ...(isGraphQLError(error) ? { nodes: error.nodes, path: error.path } : {}),
      extensions: { code: BAD_USER_INPUT, status: 400 },
    });
  }
  if (isGraphQLError(error) && !error.originalError) return error; // validation and syntax errors
  // Variables that do not fit their types (an unknown enum value, a missing required field) fail before any
  // resolver runs: the caller's mistake, not a fault. Resolver faults carry the field's path.
  if (isGraphQLError(error) && !error.path) {
    return new GraphQLError(error.message, { nodes: error.nodes, extensions: { ...error.extensions, code: "BAD_REQUEST", status: 400 } });
  }
  const masked = new GraphQLError("Internal server error", { extensions: { code: "INTERNAL", status: 500 } });
  faults.set(masked, original);
  return masked;
}

/** What envelop hands onExecute and onSubscribe that the cost check uses. */
type CostHookPayload = { args: unknown; setResultAndStopExecution(result: ExecutionResult): void };

type AnyResult = ExecutionResult | ExecutionResult[] | AsyncIterable<ExecutionResult>;

const isAsyncIterable = (value: unknown): value is AsyncIterable<ExecutionResult> =>
  typeof value === "object" && value !== null && Symbol.asyncIterator in value;

/**
 * Every error of an answer carries the request's id in `extensions.requestId` (the X-Request-Id header
 * on HTTP), so a reported error leads to its log line; a fault behind an "Internal server error" is
 * logged here, with that id.
 */
function stampErrors(errors: readonly unknown[], requestId: string, logger: Logger): GraphQLError[] {
  return errors.map((error) => {
    // Masking is idempotent: yoga's already masked errors come back as they are; socket errors get masked here.
    const e = toGraphQLError(error);
    if (faults.has(e)) logger.error({ err: faults.get(e), requestId }, "operation failed");
    // The caller's mistake, answered as such: worth a line to follow a partner's report, not an alert.
    else if (e.extensions?.code === BAD_USER_INPUT) logger.info({ requestId, reason: e.message }, "graphql: input refused");
    return new GraphQLError(e.message, {
      nodes: e.nodes,
      source: e.source,
      positions: e.positions,
      path: e.path,
      originalError: e.originalError,
      extensions: { ...e.extensions, requestId },
    });
  });
}

function withRequestId(result: AnyResult, requestId: string, logger: Logger): AnyResult {
  if (Array.isArray(result)) return result.map((one) => withRequestId(one, requestId, logger) as ExecutionResult);
  if (isAsyncIterable(result)) {
    return (async function* () {
      for await (const item of result) yield withRequestId(item, requestId, logger) as ExecutionResult;
    })();
  }
  return result.errors?.length ? { ...result, errors: stampErrors(result.errors, requestId, logger) } : result;
}

type Enveloped = {
  execute: typeof execute;
  subscribe: (args: ExecutionArgs) => ReturnType<typeof subscribeSharing> | ReturnType<typeof subscribe>;
};

export type GraphQLServerContext = { requestContext: RequestContext } & NodeBodyContext;

export function createGraphQL(services: Services) {
  let instance: ReturnType<typeof createYogaFor> | null = null;
  /** Yoga and its schema are made on the first GraphQL request or socket, not at start-up (150 ms). */
  const yoga = () => {
    instance ??= createYogaFor(services);
    return instance;
  };
  return {
    get yoga() {
      return yoga();
    },
    attachWebSocket: createGraphQLTransports(services, yoga),
  };
}

function createYogaFor(services: Services) {
  return createYoga<GraphQLServerContext, GraphQLContext>({
    schema: graphQLSchema(),
    graphqlEndpoint: "/graphql",
    // The request context is built once per request by the HTTP host (or per socket message below).
    context: ({ requestContext, request }) => ({ ...requestContext, headers: request.headers }),
    graphiql: services.config.production
      ? false
      : {
          title: "AdGen GraphQL",
          subscriptionsProtocol: "WS",
          // One tab per partner query (docs/graphql-partners.md).
          defaultTabs: PARTNER_QUERIES.map(({ query, variables }) => ({
            query,
            variables: variables ? JSON.stringify(variables, null, 2) : undefined,
          })),
        },
    // GraphiQL's page is 8.8 MB of script in one string: loaded when someone opens it (never in
    // production), not parsed at every start.
    renderGraphiQL: async (options) => (await import("@graphql-yoga/render-graphiql")).renderGraphiQL(options),
    maskedErrors: { maskError: (error) => toGraphQLError(error) },
    // Yoga logs every error the mask replaces, so each 401 or 409 printed a stack trace. Domain errors are
    // answers, not faults; unexpected ones are still logged (here and by toGraphQLError).
    // Yoga logs each error it masks; faults are logged by `stampErrors` with the request's id instead.
    logging: {
      debug: () => {},
      info: () => {},
      warn: (...args: unknown[]) => services.logger.warn({ detail: args.map(String) }, "graphql"),
      error: (...args: unknown[]) => {
        if (args.length === 1 && (args[0] as { originalError?: unknown } | null)?.originalError instanceof AppError) return;
        services.logger.debug({ err: args[0] }, "graphql: error masked");
      },
    },
    landingPage: false,
    // The front door limits /graphql bodies (256 KB, 413 before a byte is read when declared); yoga's own
    // 25 MB limit only wrapped every request's body in another stream and another Request.
    maxRequestBodySize: false,
    // CORS is the front door's (server/src/http/front-door.ts): yoga's default would answer any origin.
    cors: false,
    plugins: [
      useJsonBodyFromNode<GraphQLServerContext>(),
      {
        onResultProcess({ result, setResult, serverContext }) {
          const requestId = (serverContext as Partial<GraphQLServerContext>).requestContext?.trace?.requestId;
          if (requestId) setResult(withRequestId(result as AnyResult, requestId, services.logger) as typeof result);
        },
      },
      // The parser stops at the token limit, so a huge document costs no more than a small one.
      maxTokensPlugin({ n: GRAPHQL_LIMITS.maxTokens }),
      // "Did you mean adminUser?" tells a stranger what exists.
      blockFieldSuggestionsPlugin(),
      {
        // Introspection is for development, and for signed-in callers in production.
        onValidate({
          addValidationRule,
          context,
        }: {
          addValidationRule(rule: typeof NoSchemaIntrospectionCustomRule): void;
          context: unknown;
        }) {
          // Validation runs before the context factory: who is asking is on the server context yoga was given.
          const auth = (context as Partial<GraphQLServerContext>).requestContext?.auth;
          if (services.config.production && !auth) addValidationRule(NoSchemaIntrospectionCustomRule);
        },
      },
      // Levels of data (graphql/depth.ts): a connection's `edges`/`node`/`pageInfo` and fragments are no levels.
      {
        onValidate: ({ addValidationRule }: { addValidationRule(rule: unknown): void }) =>
          addValidationRule(depthLimitRule(GRAPHQL_LIMITS.maxDepth)),
      },
      // A connection costs in proportion to the rows it may answer (graphql/cost.ts): literal pages while
      // validating (cached per document), and again with the variables' values (`first: $n`) before it runs.
      {
        onValidate: ({ addValidationRule }: { addValidationRule(rule: unknown): void }) =>
          addValidationRule(costLimitRule(GRAPHQL_LIMITS.maxCost)),
        // Only a document paged by a variable is reckoned again: for any other, validation's cost is the cost.
        onExecute: ({ args, setResultAndStopExecution }: CostHookPayload) => {
          if (!pagesByVariable((args as ExecutionArgs).document)) return;
          const errors = costErrors(args as never, GRAPHQL_LIMITS.maxCost);
          if (errors.length) setResultAndStopExecution({ errors });
        },
        onSubscribe: ({ args, setResultAndStopExecution }: CostHookPayload) => {
          if (!pagesByVariable((args as ExecutionArgs).document)) return;
          const errors = costErrors(args as never, GRAPHQL_LIMITS.maxCost);
          if (errors.length) setResultAndStopExecution({ errors });
        },
      },
      // Malformed cursors, page counts and global ids (graphql/relay-arguments.ts), with the variables' values,
      // before any resolver: the same over HTTP and the socket (whose operations run this enveloped execute).
      {
        onExecute: ({ args, setResultAndStopExecution }: CostHookPayload) => {
          const errors = relayArgumentErrors(args as ExecutionArgs);
          if (errors.length) setResultAndStopExecution({ errors });
        },
        onSubscribe: ({ args, setResultAndStopExecution }: CostHookPayload) => {
          const errors = relayArgumentErrors(args as ExecutionArgs);
          if (errors.length) setResultAndStopExecution({ errors });
        },
      },
      maxAliasesPlugin({ n: GRAPHQL_LIMITS.maxAliases }),
    ],
  });
}

/**
 * Closes a socket whose credential ended, once the error that says why has gone out: 4401 when the
 * credential is gone (sign in again), 4403 when the account may no longer (suspended, access lost).
 */
function closeForEndedCredential(socket: WebSocket, ended: CredentialEndedError): void {
  const reason = Buffer.from(ended.message).subarray(0, 123).toString();
  setImmediate(() => socket.close(ended.code === "UNAUTHORIZED" ? 4401 : 4403, reason));
}

/** The headers of a socket's upgrade request that say who is asking and from where. */
function headersOf(request: IncomingMessage): Headers {
  const headers = new Headers();
  for (const name of ["origin", "host", "cookie", "authorization", "user-agent"]) {
    const value = request.headers[name];
    if (typeof value === "string") headers.set(name, value);
  }
  return headers;
}

type OriginCheck = (headers: Headers) => { allowed: boolean; sameOrigin: boolean };
type SocketContext = Context<Record<string, unknown> | undefined, Extra & Partial<Record<PropertyKey, never>>>;

/**
 * One operation on a socket: who is asking (the same-origin cookie, else the bearer token of the connection
 * or the upgrade), its request context and trace, then parse, validation and cost; refusals answer as the
 * operation's errors. Runs with yoga's enveloped execute, and subscriptions shared by document.
 */
async function openSocketOperation(
  services: Services,
  yoga: () => ReturnType<typeof createYogaFor>,
  originOf: OriginCheck,
  tracesOf: WeakMap<object, Map<string, RequestTrace>>,
  ctx: SocketContext,
  id: string,
  params: SubscribePayload,
) {
  const request = ctx.extra.request as IncomingMessage;
  const headers = new Headers();
  // The cookie counts only for a same-origin socket; other clients authenticate with a bearer token.
  if (request.headers.cookie && originOf(headersOf(request)).sameOrigin) headers.set("cookie", request.headers.cookie);
  const fromParams = (ctx.connectionParams as { authorization?: unknown } | undefined)?.authorization;
  const authorization = typeof fromParams === "string" ? fromParams : request.headers.authorization;
  if (authorization) headers.set("authorization", authorization);
  if (request.headers["user-agent"]) headers.set("user-agent", request.headers["user-agent"]);
  const trace = startTrace(null);
  const requestContext = await buildRequestContext(services, headers, request.socket.remoteAddress ?? null, trace);
  const refused = (errors: readonly unknown[]) => {
    logSocketOperation(services.logger, trace, "refused");
    return stampErrors(errors, trace.requestId, services.logger);
  };
  const enveloped = yoga().getEnveloped({ requestContext, params, request: new Request("http://localhost/graphql", { headers }) });
  // Syntax errors and the depth/alias limits throw rather than return: answer them as this operation's
  // errors, or graphql-ws closes the whole socket (4500) and every other subscription on it.
  let document: ReturnType<typeof enveloped.parse>;
  try {
    document = enveloped.parse(params.query);
    const errors = enveloped.validate(enveloped.schema, document);
    if (errors.length) return refused(errors);
  } catch (error) {
    if (isGraphQLError(error)) return refused([error]);
    throw error;
  }
  const traces = tracesOf.get(ctx) ?? new Map<string, RequestTrace>();
  tracesOf.set(ctx, traces.set(id, trace));
  return {
    schema: enveloped.schema,
    operationName: params.operationName,
    document,
    variableValues: params.variables,
    contextValue: await enveloped.contextFactory(),
    rootValue: {
      execute: enveloped.execute,
      // Each event's answer is made once for every subscriber of the same document.
      subscribe: (args: ExecutionArgs) =>
        subscribeSharing(args, {
          socket: ctx.extra.socket,
          id,
          audience: requestContext.auth?.user.id ?? "",
          formatErrors: (errors) => stampErrors(errors, trace.requestId, services.logger).map((error) => error.toJSON()),
        }),
    } satisfies Enveloped,
  };
}

function createGraphQLTransports(services: Services, yoga: () => ReturnType<typeof createYogaFor>) {
  /** Serves subscriptions (and queries) over graphql-ws on the HTTP server's /graphql path. */
  function attachWebSocket(server: Server, originOf: OriginCheck) {
    const wss = new WebSocketServer({
      server,
      path: "/graphql",
      // A message is one graphql-ws frame (a document with its variables): the limit of a document over
      // HTTP, not ws's default of 100 MB. A larger one closes the socket with 1009 (message too big).
      maxPayload: bodyLimitFor("/graphql"),
      // Another origin's page may open a socket only when CORS_ORIGINS allows it.
      verifyClient: ({ req }: { req: IncomingMessage }) => originOf(headersOf(req)).allowed,
    });
    // Each operation on a socket gets its own id and log line (sockets are keyed weakly: closed ones go).
    const tracesOf = new WeakMap<object, Map<string, RequestTrace>>();
    const cleanup = useServer(
      {
        // Run with the enveloped execute/subscribe chosen in onSubscribe (so yoga's plugins apply).
        execute: (args) => (args.rootValue as Enveloped).execute(args),
        subscribe: (args) => (args.rootValue as Enveloped).subscribe(args),
        onSubscribe: (ctx, id, params) => openSocketOperation(services, yoga, originOf, tracesOf, ctx, id, params),
        onNext: (ctx, id, _payload, _args, result) => {
          const errors = (result as { errors?: unknown[] }).errors;
          const requestId = tracesOf.get(ctx)?.get(id)?.requestId ?? startTrace(null).requestId;
          if (errors?.length) return { ...result, errors: stampErrors(errors, requestId, services.logger) } as typeof result;
          return result;
        },
        // A stream that fails part-way (graphql-ws wraps what it threw): masked and logged as any fault is,
        // with the operation's request id. Refusals answered by onSubscribe are stamped there already.
        onError: (ctx, id, _payload, errors) => {
          // The socket's credential ended (logout, password change, suspension): every operation on it is over.
          const ended = errors.map((error) => error.originalError).find((error) => error instanceof CredentialEndedError);
          if (ended) closeForEndedCredential(ctx.extra.socket, ended);
          const trace = tracesOf.get(ctx)?.get(id);
          if (!trace) return;
          return stampErrors(
            errors.map((error) => error.originalError ?? error),
            trace.requestId,
            services.logger,
          ).map((error) => error.toJSON());
        },
        onComplete: (ctx, id) => {
          const trace = tracesOf.get(ctx)?.get(id);
          if (!trace) return;
          tracesOf.get(ctx)?.delete(id);
          logSocketOperation(services.logger, trace, "completed");
        },
      },
      wss,
    );
    // A client's bad frame (too big, invalid UTF-8, a wrong opcode) is an 'error' on its socket after ws has
    // already closed it with the code that says why (1009, 1007, 1002). graphql-ws printed each one to the
    // console as "Internal error … check your implementation": it is the client's, logged as such here.
    wss.on("connection", (socket) => {
      socket.removeAllListeners("error");
      socket.on("error", (error: Error & { code?: string }) =>
        services.logger.info({ code: error.code, reason: error.message }, "graphql socket closed: the client sent a frame it may not"),
      );
    });
    return {
      async close() {
        await cleanup.dispose();
        wss.close();
      },
    };
  }

  return attachWebSocket;
}

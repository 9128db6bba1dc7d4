// A POST /graphql JSON body read from Node's stream, as the REST adapter reads its bodies (http/node-body.ts):
// yoga's own parser calls `request.json()`, and on @hono/node-server that first read builds the whole web
// Request around the socket (a ReadableStream, an AbortController, a copy of the headers): about a tenth
// of a small GraphQL read's CPU. The answers to a bad body are yoga's own (400, the same messages).
import { GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";

export interface NodeBodyContext {
  /** The body's bytes from Node's stream, or null when it is not untouched (then yoga reads the Request). */
  readBody?: () => Promise<Uint8Array> | null;
}

const badRequest = (message: string, extensions: Record<string, unknown> = {}) =>
  new GraphQLError(message, { extensions: { http: { status: 400, ...extensions }, code: "BAD_REQUEST" } });

function isJsonPost(request: Request): boolean {
  if (request.method !== "POST") return false;
  const type = request.headers.get("content-type")?.split(";", 1)[0]?.trim().toLowerCase();
  return type === "application/json" || type === "application/graphql+json";
}

async function parseJson(bytes: Promise<Uint8Array>) {
  const raw = await bytes;
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString("utf8"));
  } catch (error) {
    const originalError = error instanceof Error ? { name: error.name, message: error.message } : undefined;
    throw new GraphQLError("POST body sent invalid JSON.", {
      extensions: { http: { spec: true, status: 400 }, code: "BAD_REQUEST", ...(originalError ? { originalError } : {}) },
    });
  }
  if (body == null) throw badRequest(`POST body is expected to be object but received ${body}`);
  if (typeof body !== "object") throw badRequest(`POST body is expected to be object but received ${typeof body}`);
  return body as never;
}

/** Yoga's JSON POST parser, reading from Node's stream when the host handed one over. */
export function useJsonBodyFromNode<Context extends NodeBodyContext>(): Plugin<Record<string, unknown>, Context> {
  return {
    onRequestParse({ request, serverContext, setRequestParser }) {
      if (!isJsonPost(request)) return;
      const bytes = (serverContext as NodeBodyContext).readBody?.();
      if (bytes) setRequestParser(() => parseJson(bytes));
    },
  };
}

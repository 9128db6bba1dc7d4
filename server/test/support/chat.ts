// Asking the assistant as a client does: POST /api/chat/query, reading the SSE answer to its end.
import { parseSseBlock } from "./sse.ts";
import type { Account } from "./accounts.ts";
import type { TestApp } from "./harness.ts";

export interface ChatEvent {
  event: string;
  data: any;
}

export interface ChatAnswer {
  status: number;
  contentType: string | null;
  events: ChatEvent[];
  /** The error envelope of a refused question. */
  error?: string;
  texts: string[];
  tools: { name: string; arguments: any; result: any }[];
  done: any;
  text: string;
}

/** Who asks: an account's session (its cookie), a bearer credential (an API key, a JWT), or nobody. */
export type Asker = Account | { bearer: string } | null;

const credentialHeaders = (asker: Asker): Record<string, string> => {
  if (!asker) return {};
  return "bearer" in asker ? { authorization: `Bearer ${asker.bearer}` } : { cookie: `session=${asker.jwt}` };
};

export async function ask(app: TestApp, asker: Asker, body: Record<string, unknown>): Promise<ChatAnswer> {
  const response = await fetch(`${app.url}/api/chat/query`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", ...credentialHeaders(asker) },
    body: JSON.stringify(body),
  });
  const contentType = response.headers.get("content-type");
  const raw = await response.text();
  if (!contentType?.startsWith("text/event-stream")) {
    const parsed = raw ? JSON.parse(raw) : {};
    return { status: response.status, contentType, events: [], error: parsed.error, texts: [], tools: [], done: null, text: "" };
  }
  const events: ChatEvent[] = [];
  for (const block of raw.split(/\n\n/)) {
    const { event, data } = parseSseBlock(block);
    if (data !== null) events.push({ event, data: JSON.parse(data) });
  }
  const texts = events.filter((e) => e.event === "text").map((e) => e.data.text as string);
  return {
    status: response.status,
    contentType,
    events,
    texts,
    tools: events.filter((e) => e.event === "tool").map((e) => e.data.tool),
    done: events.find((e) => e.event === "done")?.data ?? null,
    text: texts.join(""),
  };
}

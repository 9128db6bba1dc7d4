// Asking the assistant: POST /api/chat/query, read as Server-Sent Events while it answers. A plain fetch
// rather than the tRPC subscription: an EventSource reconnects on its own, and a question must never be
// asked twice (a second "yes" after a dropped connection must not look like a new confirmation).
export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
  result?: unknown;
}

export type ChatEvent =
  | { type: "text"; threadId: string; text: string }
  | { type: "tool"; threadId: string; tool: ToolCall }
  | { type: "done"; threadId: string; text?: string; messageId?: string }
  /** The answer broke off (the language model failed mid-answer): what was said is kept, `done` follows. */
  | { type: "error"; threadId: string; error?: string };

export async function streamQuestion(
  body: { message: string; threadId?: string },
  onEvent: (event: ChatEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  const response = await fetch("/api/chat/query", {
    method: "POST",
    credentials: "include",
    headers: { "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok || !response.body) {
    const answer = (await response.json().catch(() => null)) as { error?: string } | null;
    throw new Error(answer?.error ?? `The assistant could not answer (HTTP ${response.status}). Try again.`);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trim())
        .join("\n");
      const name = block
        .split("\n")
        .find((line) => line.startsWith("event:"))
        ?.slice(6)
        .trim();
      if (data) {
        const parsed = JSON.parse(data) as { type?: string; error?: string };
        // An `error` without a type is the stream itself failing; one with a type is part of the answer.
        if (name === "error" && parsed.type !== "error") throw new Error(parsed.error ?? "The answer stopped.");
        onEvent(parsed as ChatEvent);
      }
      end = buffer.indexOf("\n\n");
    }
  }
}

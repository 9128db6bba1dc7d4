// The conversation so far: first questions to pick while it is empty, then each message with its tool calls.
import { Spinner } from "../../ui/status.tsx";
import { MessageText } from "./message-text.tsx";
import { ToolCallCard } from "./tool-call.tsx";
import type { ShownMessage } from "./use-assistant.ts";

/** First questions, worded with the account's own brand (a new account gets neutral ones). */
function suggestionsFor(brand: string | null): string[] {
  return [
    "What can you do?",
    brand ? `How is ${brand} doing?` : "How are my ads doing?",
    brand ? `Plan a 4-week campaign for ${brand}` : "Plan a 4-week campaign",
    "How much is a cinematic ad?",
    "Status of my projects",
  ];
}

interface MessageListProps {
  shown: ShownMessage[];
  brandName: string | null;
  busy: boolean;
  ask: (message: string) => Promise<void>;
}

export function MessageList({ shown, brandName, busy, ask }: MessageListProps) {
  return (
    <>
      {shown.length === 0 ? (
        <div className="assistant-suggestions">
          {suggestionsFor(brandName).map((s) => (
            <button key={s} type="button" className="btn btn-small" onClick={() => void ask(s)} disabled={busy}>
              {s}
            </button>
          ))}
        </div>
      ) : null}
      {shown.map((m) => (
        <div key={m.id} className={`assistant-message assistant-message-${m.role}`} data-testid={`assistant-message-${m.role}`}>
          {m.toolCalls
            .map((call, position) => ({ call, key: `${call.name}-${position}` }))
            .map(({ call, key }) => (
              <ToolCallCard key={key} call={call} />
            ))}
          {m.content ? <MessageText text={m.content} /> : m.id === "streaming" ? <Spinner size="sm" /> : null}
        </div>
      ))}
    </>
  );
}

// The assistant's conversations: start a new one, or go back to an earlier thread.
import { InlineError, Skeleton } from "../../ui/status.tsx";
import type { useAssistant } from "./use-assistant.ts";

export function ThreadList({ headingId, assistant }: { headingId: string; assistant: ReturnType<typeof useAssistant> }) {
  const { history, threads, threadId, busy } = assistant;
  return (
    <nav aria-labelledby={headingId} className="card">
      <h2 id={headingId} className="field-label">
        Conversations
      </h2>
      <div className="assistant-threads">
        <button
          type="button"
          className="btn btn-small btn-primary"
          onClick={() => assistant.open(null)}
          disabled={Boolean(busy)}
          data-testid="assistant-new-thread"
        >
          New conversation
        </button>
        {history.isPending ? <Skeleton height="2rem" /> : null}
        {history.isError ? <InlineError error={history.error} onRetry={() => void history.refetch()} /> : null}
        {threads.map((t) => (
          <button
            key={t.id}
            type="button"
            className="btn btn-ghost btn-small assistant-thread"
            aria-current={t.id === threadId}
            onClick={() => assistant.open(t.id)}
            disabled={Boolean(busy)}
            data-testid="assistant-thread"
          >
            {t.title}
            {t.pendingLaunch ? <span className="badge badge-admin">waiting for yes</span> : null}
          </button>
        ))}
      </div>
    </nav>
  );
}

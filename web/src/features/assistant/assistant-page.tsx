// The assistant: ask in words (or by voice where the browser can), watch the answer stream in with each
// tool call as it happens, confirm launches with a "yes" (typed, or the waiting launch's own button, which
// says its price), and go back to earlier threads.
import { CHAT_MESSAGE_MAX } from "@adgen/schema";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useRef, useState } from "react";
import { type ChatEvent, streamQuestion, type ToolCall } from "./chat-stream.ts";
import { MicButton } from "./mic-button.tsx";
import { PendingLaunchCard } from "./pending-launch-card.tsx";
import { ToolCallCard } from "./tool-call.tsx";
import "./assistant.css";
import { InlineError, Skeleton, Spinner } from "../../ui/status.tsx";
import { errorMessage } from "../../lib/errors.ts";
import { useTitle } from "../../lib/hooks.ts";
import { useTRPC, useTRPCClient } from "../../trpc.ts";

interface ShownMessage {
  id: string;
  role: "user" | "assistant";
  content: string;
  toolCalls: ToolCall[];
}

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

export function AssistantPage() {
  useTitle("Assistant");
  const uid = useId();
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const history = useQuery(trpc.chat.history.queryOptions());
  const voice = useQuery(trpc.voice.config.queryOptions({ voiceProvider: "elevenlabs" }));
  const brand = useQuery(trpc.brand.get.queryOptions());
  const brandName = brand.data?.brandName?.trim() || null;
  const [threadId, setThreadId] = useState<string | null>(null);
  const [draft, setDraft] = useState("");
  const [pending, setPending] = useState<ShownMessage[]>([]);
  const [busy, setBusy] = useState<false | "answering" | "listening">(false);
  const [problem, setProblem] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);

  const threads = history.data?.threads ?? [];
  const thread = threads.find((t) => t.id === threadId) ?? null;
  const shown: ShownMessage[] = [...(thread?.messages ?? []), ...pending];

  const refreshHistory = () => queryClient.invalidateQueries({ queryKey: trpc.chat.history.queryKey() });

  async function ask(message: string) {
    const text = message.trim();
    if (!text || busy) return;
    setProblem(null);
    setBusy("answering");
    const answer: ShownMessage = { id: "streaming", role: "assistant", content: "", toolCalls: [] };
    setPending([{ id: "asked", role: "user", content: text, toolCalls: [] }, answer]);
    setDraft("");
    abort.current = new AbortController();
    try {
      await streamQuestion(
        { message: text, ...(threadId ? { threadId } : {}) },
        (event: ChatEvent) => {
          if (event.type === "text") answer.content += event.text;
          if (event.type === "tool") answer.toolCalls = [...answer.toolCalls, event.tool];
          if (event.type === "done") setThreadId(event.threadId);
          // The answer broke off: what was said stays in the thread, and why it stopped is said here.
          if (event.type === "error") setProblem(event.error ?? "The assistant could not finish its answer. Please ask again.");
          setPending((current) => current.map((m) => (m.id === "streaming" ? { ...answer } : m)));
        },
        abort.current.signal,
      );
      await refreshHistory();
      setPending([]);
    } catch (error) {
      setProblem(errorMessage(error));
      setDraft(text);
      setPending((current) => current.filter((m) => m.id !== "streaming" || m.content || m.toolCalls.length));
    } finally {
      setBusy(false);
    }
  }

  async function speak(audio: string, audioType: string) {
    setProblem(null);
    setBusy("listening");
    try {
      const { session } = await client.voice.createSession.mutate({ voiceProvider: "elevenlabs", ...(threadId ? { threadId } : {}) });
      const turn = await client.voice.turn.mutate({ voiceProvider: "elevenlabs", sessionId: session.id, audio, audioType });
      setThreadId(turn.threadId);
      await refreshHistory();
      void new Audio(turn.audioUrl).play().catch(() => {});
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void ask(draft);
  };
  const tooLong = draft.length > CHAT_MESSAGE_MAX;

  return (
    <div className="page" data-testid="assistant-page">
      <header className="page-header">
        <div>
          <h1 className="page-title">Assistant</h1>
          <p className="page-subtitle muted">
            Ask about your results, plan a campaign, estimate or launch a workflow. Launches wait for your “yes”.
          </p>
        </div>
      </header>
      <div className="assistant-layout">
        <nav aria-labelledby={`${uid}-threads`} className="card">
          <h2 id={`${uid}-threads`} className="field-label">
            Conversations
          </h2>
          <div className="assistant-threads">
            <button
              type="button"
              className="btn btn-small btn-primary"
              onClick={() => {
                setThreadId(null);
                setPending([]);
              }}
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
                onClick={() => {
                  setThreadId(t.id);
                  setPending([]);
                }}
                disabled={Boolean(busy)}
                data-testid="assistant-thread"
              >
                {t.title}
                {t.pendingLaunch ? <span className="badge badge-admin">waiting for yes</span> : null}
              </button>
            ))}
          </div>
        </nav>
        <section className="assistant-conversation" aria-live="polite" aria-labelledby={`${uid}-conversation`}>
          <h2 id={`${uid}-conversation`} className="visually-hidden">
            Conversation
          </h2>
          {shown.length === 0 ? (
            <div className="assistant-suggestions">
              {suggestionsFor(brandName).map((s) => (
                <button key={s} type="button" className="btn btn-small" onClick={() => void ask(s)} disabled={Boolean(busy)}>
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
              {m.content || (m.id === "streaming" ? <Spinner size="sm" /> : null)}
            </div>
          ))}
          {thread?.pendingLaunch && pending.length === 0 ? (
            <PendingLaunchCard pending={thread.pendingLaunch} disabled={Boolean(busy)} onAnswer={(answer) => void ask(answer)} />
          ) : null}
          {busy === "listening" ? (
            <p className="muted">
              <Spinner size="sm" /> Listening to your recording and answering…
            </p>
          ) : null}
          {problem ? (
            <p className="inline-error" role="alert" data-testid="assistant-error">
              {problem}
            </p>
          ) : null}
          <form className="assistant-form" onSubmit={onSubmit}>
            <label htmlFor={`${uid}-message`} className="visually-hidden">
              Your question
            </label>
            <textarea
              id={`${uid}-message`}
              className="input"
              rows={3}
              value={draft}
              placeholder={`Ask me… e.g. “Launch a static ad about ${brandName ?? "our best seller"}”`}
              onChange={(e) => setDraft(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter" && !e.shiftKey) {
                  e.preventDefault();
                  void ask(draft);
                }
              }}
              aria-invalid={tooLong}
              data-testid="assistant-input"
            />
            <div className="assistant-form-actions">
              <span className={tooLong ? "field-error" : "muted"}>
                {tooLong ? `Shorten your question to ${CHAT_MESSAGE_MAX} characters` : `${draft.length} / ${CHAT_MESSAGE_MAX}`}
              </span>
              <span className="assistant-mic">
                <MicButton
                  serverSpeechToText={Boolean(voice.data?.speechToText)}
                  onTranscript={(text) => setDraft(text)}
                  onAudio={(audio, type) => void speak(audio, type)}
                  disabled={Boolean(busy)}
                />
                <button
                  type="submit"
                  className="btn btn-primary"
                  disabled={Boolean(busy) || !draft.trim() || tooLong}
                  data-testid="assistant-send"
                >
                  {busy === "answering" ? "Answering…" : "Send"}
                </button>
              </span>
            </div>
          </form>
        </section>
      </div>
    </div>
  );
}

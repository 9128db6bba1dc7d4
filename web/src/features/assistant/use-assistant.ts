// A conversation with the assistant: the thread being read, the question being answered (its answer
// streamed in with each tool call as it happens) or a recording being heard, and what went wrong.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { errorMessage } from "../../lib/errors.ts";
import { useTRPC, useTRPCClient } from "../../trpc.ts";
import { type ChatEvent, streamQuestion, type ToolCall } from "./chat-stream.ts";

export interface ShownMessage {
  id: string;
  role: "user" | "assistant";
  content: string;
  toolCalls: ToolCall[];
}

export function useAssistant() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const history = useQuery(trpc.chat.history.queryOptions());
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
      // A launch (or a refund) in the answer moved the balance: the header shows it now, not at its next poll.
      void queryClient.invalidateQueries({ queryKey: trpc.user.credits.queryKey() });
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

  /** Opens a thread (null: a new conversation). */
  function open(id: string | null) {
    setThreadId(id);
    setPending([]);
  }

  return { history, threads, threadId, thread, shown, pending, draft, setDraft, busy, problem, ask, speak, open };
}

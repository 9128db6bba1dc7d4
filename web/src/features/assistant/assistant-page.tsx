// The assistant: ask in words (or by voice where the browser can), watch the answer stream in with each
// tool call as it happens, confirm launches with a "yes" (typed, or the waiting launch's own button, which
// says its price), and go back to earlier threads.
import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { useTitle } from "../../lib/hooks.ts";
import { useTRPC } from "../../trpc.ts";
import { Spinner } from "../../ui/status.tsx";
import { MessageList } from "./message-list.tsx";
import { PendingLaunchCard } from "./pending-launch-card.tsx";
import { QuestionForm } from "./question-form.tsx";
import { ThreadList } from "./thread-list.tsx";
import { useAssistant } from "./use-assistant.ts";
import "./assistant.css";
import { PageHeader } from "../../ui/page-header.tsx";

export function AssistantPage() {
  useTitle("Assistant");
  const uid = useId();
  const trpc = useTRPC();
  const voice = useQuery(trpc.voice.config.queryOptions({ voiceProvider: "elevenlabs" }));
  const brand = useQuery(trpc.brand.get.queryOptions());
  const brandName = brand.data?.brandName?.trim() || null;
  const assistant = useAssistant();
  const { thread, pending, busy, problem } = assistant;

  return (
    <div className="page" data-testid="assistant-page">
      <PageHeader
        title="Assistant"
        subtitle="Ask about your results, plan a campaign, estimate or launch a workflow. Launches wait for your “yes”."
      />
      <div className="assistant-layout">
        <ThreadList headingId={`${uid}-threads`} assistant={assistant} />
        <section className="assistant-conversation" aria-live="polite" aria-labelledby={`${uid}-conversation`}>
          <h2 id={`${uid}-conversation`} className="visually-hidden">
            Conversation
          </h2>
          <MessageList shown={assistant.shown} brandName={brandName} busy={Boolean(busy)} ask={assistant.ask} />
          {thread?.pendingLaunch && pending.length === 0 ? (
            <PendingLaunchCard pending={thread.pendingLaunch} disabled={Boolean(busy)} onAnswer={(answer) => void assistant.ask(answer)} />
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
          <QuestionForm
            id={`${uid}-message`}
            draft={assistant.draft}
            setDraft={assistant.setDraft}
            busy={busy}
            brandName={brandName}
            serverSpeechToText={Boolean(voice.data?.speechToText)}
            ask={assistant.ask}
            speak={assistant.speak}
          />
        </section>
      </div>
    </div>
  );
}

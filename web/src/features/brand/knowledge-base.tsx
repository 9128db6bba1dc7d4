// The knowledge base: documents (PDF, DOCX, XLSX, CSV, TXT) uploaded with a progress bar each, and web
// pages; each item's status updates live while its text is extracted (polled), its text can be
// previewed, one that could not be read can be tried again, and any can be deleted. The limits come from @adgen/schema, so what the page says is what
// the server enforces; a refusal shows on the file's row, in plain words.
import { KNOWLEDGE_EXTENSIONS, KNOWLEDGE_LIMITS, type KnowledgeItem, webAddress } from "@adgen/schema";
import { ConfirmDialog, mutationState } from "../../ui/confirm-dialog.tsx";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { errorMessage } from "../../lib/errors.ts";
import { useTRPC } from "../../trpc.ts";
import { WebAddressField } from "../../ui/web-address-field.tsx";
import { InlineError, Skeleton } from "../../ui/status.tsx";
import { describeBytes, UploadList, useFileUploads } from "./file-uploads.tsx";
import { uploadKnowledgeFile } from "./upload-knowledge.ts";
import { UploadPanel } from "../../ui/upload-panel.tsx";
import "./brand.css";
import { SettingsCard } from "../../ui/settings-card.tsx";
import { FormActions } from "../../ui/form-actions.tsx";

const ACCEPT = KNOWLEDGE_EXTENSIONS.join(",");

/** What the browser can tell before sending: the name and the size (the server also checks the content). */
function precheck(file: File, room: number): string | null {
  const name = file.name.toLowerCase();
  if (!KNOWLEDGE_EXTENSIONS.some((ending) => name.endsWith(ending))) {
    return "This type of file is not supported: add a PDF, Word (DOCX), Excel (XLSX), CSV or plain-text (TXT) file.";
  }
  if (file.size > KNOWLEDGE_LIMITS.maxFileBytes) {
    return `This file is too large (${describeBytes(file.size)}); documents may be at most ${describeBytes(KNOWLEDGE_LIMITS.maxFileBytes)}.`;
  }
  if (room <= 0) return `Your knowledge base is full (${KNOWLEDGE_LIMITS.maxFiles} files). Delete one to add another.`;
  return null;
}

const STATUS_TEXT: Record<KnowledgeItem["status"], string> = { extracting: "Reading…", ready: "Ready", error: "Could not be read" };

/** An item's status in words: one still waiting for its turn says how many files are read before it (the server counts them). */
function statusText(item: KnowledgeItem): string {
  if (item.status !== "extracting" || item.filesAhead === null) return STATUS_TEXT[item.status];
  if (item.filesAhead === 0) return "Waiting: next in line";
  return `Waiting for ${item.filesAhead.toLocaleString()} ${item.filesAhead === 1 ? "file" : "files"} ahead`;
}

export function KnowledgeBaseSection() {
  const uid = useId();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // Polled while any item is still being read, so its status changes on screen.
  const knowledge = useQuery({
    ...trpc.brand.knowledge.queryOptions(),
    refetchInterval: (query) => (query.state.data?.some((i) => i.status === "extracting") ? 1000 : false),
  });
  const items = knowledge.data ?? [];
  const files = items.filter((i) => i.type === "file");
  const pages = items.filter((i) => i.type === "url");
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.brand.knowledge.queryKey() });
  const { uploads, sending, handleFiles } = useFileUploads({
    room: () => KNOWLEDGE_LIMITS.maxFiles - files.length,
    precheck,
    upload: uploadKnowledgeFile,
    onUploaded: refresh,
  });

  return (
    <SettingsCard
      title="Knowledge base"
      id="knowledge"
      testId="knowledge-base"
      intro={
        <>
          Documents and pages about your brand. Your ads draw facts from them (a product name, a number) and each result lists the passages
          it used. PDF, DOCX, XLSX, CSV or TXT, up to {describeBytes(KNOWLEDGE_LIMITS.maxFileBytes)} each; up to {KNOWLEDGE_LIMITS.maxFiles}{" "}
          files and {KNOWLEDGE_LIMITS.maxUrls} pages.
        </>
      }
    >
      <div className="media-library">
        <UploadPanel
          inputId={`${uid}-file`}
          accept={ACCEPT}
          testId="knowledge"
          label="Add documents"
          count={
            knowledge.isPending
              ? ""
              : `${files.length} of ${KNOWLEDGE_LIMITS.maxFiles} files · ${pages.length} of ${KNOWLEDGE_LIMITS.maxUrls} pages`
          }
          sending={sending}
          loading={knowledge.isPending}
          blocked={files.length >= KNOWLEDGE_LIMITS.maxFiles}
          onFiles={(event) => void handleFiles(event)}
        />
        {files.length >= KNOWLEDGE_LIMITS.maxFiles ? (
          <p className="muted" data-testid="knowledge-full">
            Your knowledge base holds {KNOWLEDGE_LIMITS.maxFiles} files, the most it can. Delete one to add another.
          </p>
        ) : null}
        <UploadList uploads={uploads} testId="knowledge" />
        <AddPageForm full={pages.length >= KNOWLEDGE_LIMITS.maxUrls} onAdded={refresh} />
        {knowledge.isError ? (
          <InlineError error={knowledge.error} onRetry={() => void knowledge.refetch()} />
        ) : knowledge.isPending ? (
          <Skeleton height="96px" />
        ) : items.length === 0 ? (
          <p className="muted media-empty" data-testid="knowledge-empty">
            Nothing here yet. Add a product sheet, a price list or your About page.
          </p>
        ) : (
          <ul className="knowledge-list" data-testid="knowledge-list">
            {items.map((item) => (
              <KnowledgeRow key={item.id} item={item} />
            ))}
          </ul>
        )}
      </div>
    </SettingsCard>
  );
}

function AddPageForm({ full, onAdded }: { full: boolean; onAdded: () => Promise<unknown> }) {
  const trpc = useTRPC();
  const [url, setUrl] = useState("");
  const [error, setError] = useState<string | null>(null);
  const add = useMutation(trpc.brand.addKnowledgeUrls.mutationOptions());

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (add.isPending) return;
    const parsed = webAddress("The page address").safeParse(url.trim());
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? "Enter the page's address, starting with https://");
      return;
    }
    setError(null);
    try {
      await add.mutateAsync({ url: parsed.data });
      setUrl("");
      await onAdded();
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }

  return (
    <form className="form knowledge-url-form" noValidate onSubmit={handleSubmit} data-testid="knowledge-url-form">
      <WebAddressField
        label="Add a web page"
        placeholder="https://yourbrand.com/about"
        value={url}
        disabled={full}
        onChange={(e) => {
          setUrl(e.target.value);
          setError(null);
        }}
        error={error}
        errorTestId="knowledge-url-error"
        hint={
          full ? `You have ${KNOWLEDGE_LIMITS.maxUrls} pages, the most you can. Delete one to add another.` : "Its readable text is kept."
        }
        testId="knowledge-url"
      />
      <FormActions
        label="Add page"
        busyLabel="Adding…"
        busy={add.isPending}
        disabled={full || !url.trim()}
        testId="knowledge-url-add"
        className="btn btn-small"
      />
    </form>
  );
}

function KnowledgeRow({ item }: { item: KnowledgeItem }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const detail = useQuery({ ...trpc.brand.knowledgeItem.queryOptions({ id: item.id }), enabled: open && item.status === "ready" });
  const refreshList = () => queryClient.invalidateQueries({ queryKey: trpc.brand.knowledge.queryKey() });
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation(
    trpc.brand.deleteKnowledge.mutationOptions({
      onSuccess: () => {
        setConfirming(false);
        void refreshList();
      },
    }),
  );
  // A page that could not be read is fetched anew (the site may be back); the list polls while it reads.
  const retry = useMutation(trpc.brand.retryKnowledge.mutationOptions({ onSuccess: refreshList }));
  return (
    <li className={`knowledge-row status-${item.status}`} data-testid="knowledge-item" data-status={item.status}>
      <div className="knowledge-row-head">
        <span className="knowledge-name" title={item.name}>
          {item.name}
        </span>
        <span className={`knowledge-status status-${item.status}`} data-testid="knowledge-status">
          {statusText(item)}
        </span>
      </div>
      <div className="knowledge-row-meta muted">
        {item.type === "url" ? "Web page" : describeBytes(item.size)}
        {item.status === "ready" ? ` · ${item.textLength.toLocaleString()} characters` : ""}
      </div>
      {item.error ? (
        <p className="field-error" role="alert" data-testid="knowledge-error">
          {item.error}
        </p>
      ) : null}
      {item.warning ? (
        <p className="muted knowledge-warning" data-testid="knowledge-warning">
          {item.warning}
        </p>
      ) : null}
      <div className="knowledge-actions">
        {item.status === "ready" && item.textLength > 0 ? (
          <button
            type="button"
            className="btn btn-link btn-small"
            onClick={() => setOpen((o) => !o)}
            aria-expanded={open}
            data-testid="knowledge-preview-toggle"
          >
            {open ? "Hide text" : "Show text"}
          </button>
        ) : null}
        {item.status === "error" ? (
          <button
            type="button"
            className="btn btn-link btn-small"
            onClick={() => retry.mutate({ id: item.id })}
            disabled={retry.isPending}
            aria-label={`Try ${item.name} again`}
            data-testid="knowledge-retry"
          >
            {retry.isPending ? "Trying again…" : "Try again"}
          </button>
        ) : null}
        <button
          type="button"
          className="btn btn-link btn-small btn-danger-text"
          onClick={() => setConfirming(true)}
          disabled={remove.isPending}
          aria-label={`Delete ${item.name}`}
          data-testid="knowledge-delete"
        >
          {remove.isPending ? "Deleting…" : "Delete"}
        </button>
      </div>
      <ConfirmDialog
        open={confirming}
        title={`Delete ${item.name}?`}
        confirmLabel="Delete"
        pendingLabel="Deleting…"
        {...mutationState(remove)}
        onConfirm={() => remove.mutate({ id: item.id })}
        onClose={() => setConfirming(false)}
        testId="knowledge-delete-confirm"
      >
        <p>Its text is removed from your brand knowledge, and later ads no longer draw on it. Ads already made stay as they are.</p>
      </ConfirmDialog>
      {open ? (
        detail.isError ? (
          <InlineError error={detail.error} onRetry={() => void detail.refetch()} />
        ) : detail.isPending ? (
          <Skeleton height="64px" />
        ) : (
          <pre className="knowledge-preview" data-testid="knowledge-preview">
            {detail.data.extractedText.slice(0, 4000)}
            {detail.data.extractedText.length > 4000 ? "\n…" : ""}
          </pre>
        )
      ) : null}
      {remove.isError || retry.isError ? (
        <p className="field-error" role="alert">
          {errorMessage(remove.error ?? retry.error)}
        </p>
      ) : null}
    </li>
  );
}

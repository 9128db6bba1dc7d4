// Free previews before launching (`workflow.preview`, never charged): the storyboard's scenes as stills drawn
// by the renderer, its creative score and the exact price. A headline can be changed and previewed again; the
// preview's id goes to the launch (`onPreviewId`), so what was previewed is what is rendered. A preview made for
// another form (a field changed since) is put away, and the launch directs the ad afresh.
import type { WorkflowRequestInput } from "@adgen/schema";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { errorMessage } from "../../lib/errors.ts";
import { type RouterOutputs, useTRPC } from "../../trpc.ts";
import { Spinner } from "../../ui/status.tsx";

type Preview = RouterOutputs["workflow"]["preview"];

interface StoryboardPreviewsProps {
  request: WorkflowRequestInput;
  /** The preview the launch should render, or null when there is none for this form. */
  onPreviewId(previewId: string | null): void;
}

export function StoryboardPreviews({ request, onPreviewId }: StoryboardPreviewsProps) {
  const uid = useId();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const requestKey = JSON.stringify(request);
  const [preview, setPreview] = useState<{ for: string; data: Preview } | null>(null);
  const [headlines, setHeadlines] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const current = preview && preview.for === requestKey ? preview.data : null;
  useEffect(() => onPreviewId(current?.previewId ?? null), [current?.previewId, onPreviewId]);

  async function run(input: Record<string, unknown>) {
    setBusy(true);
    setProblem(null);
    try {
      const data = await queryClient.fetchQuery({ ...trpc.workflow.preview.queryOptions(input as never), staleTime: 0 });
      setPreview({ for: requestKey, data });
      setHeadlines(data.stills.map((still) => still.headline));
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  const edits = current
    ? headlines.flatMap((headline, i) => (headline.trim() && headline !== current.stills[i]?.headline ? [{ scene: i + 1, headline }] : []))
    : [];

  return (
    <section className="card studio-previews" aria-labelledby={`${uid}-title`} data-testid="storyboard-previews">
      <h3 id={`${uid}-title`}>Preview for free</h3>
      <p className="muted">See every scene as it will be rendered, change a line, then launch. Previews cost nothing.</p>
      <button type="button" className="button secondary" disabled={busy} onClick={() => void run({ ...request })}>
        {current ? "Preview from scratch" : "Preview scenes"}
      </button>
      {busy ? (
        <p aria-live="polite">
          <Spinner size="sm" /> Drawing the scenes…
        </p>
      ) : null}
      {problem ? (
        <p role="alert" className="form-error">
          {problem}
        </p>
      ) : null}
      {current ? (
        <>
          <p data-testid="preview-summary">
            Score {current.creativeScore.score}/100 · launching this costs {current.price.cost} credit{current.price.cost === 1 ? "" : "s"}
          </p>
          <ol className="preview-scenes">
            {current.stills.map((still, i) => (
              <li key={still.sceneId}>
                <img
                  src={still.image}
                  width={still.width}
                  height={still.height}
                  alt={`Scene ${still.scene}: ${still.headline}`}
                  style={{ width: "100%", height: "auto" }}
                />
                <label>
                  Scene {still.scene} headline
                  <input
                    type="text"
                    value={headlines[i] ?? ""}
                    maxLength={120}
                    onChange={(event) => setHeadlines((all) => all.map((h, j) => (j === i ? event.target.value : h)))}
                  />
                </label>
              </li>
            ))}
          </ol>
          <button
            type="button"
            className="button secondary"
            disabled={busy || edits.length === 0}
            onClick={() => void run({ ...request, previewId: current.previewId, edits })}
          >
            Preview again with my changes
          </button>
        </>
      ) : null}
    </section>
  );
}

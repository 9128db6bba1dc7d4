// Free previews before launching (`workflow.preview`, never charged): the storyboard's scenes as stills drawn
// by the renderer, its creative score and the exact price. A headline, and a scene's picture (a product photo
// of the brand library, or none), can be changed and previewed again; the
// preview's id goes to the launch (`onPreviewId`), so what was previewed is what is rendered. A preview made for
// another form (a field changed since) is put away, and the launch directs the ad afresh.
import { NO_PICTURE, type SceneEdit, type WorkflowRequestInput } from "@adgen/schema";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { Link } from "wouter";
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
  /** Per scene: "" keeps the previewed picture, else a library photo's id or NO_PICTURE. */
  const [pictures, setPictures] = useState<string[]>([]);
  const library = useQuery(trpc.brand.media.queryOptions());
  const photos = (library.data ?? []).filter((item) => item.role === "product" && item.kind === "image");
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
      setPictures(data.stills.map(() => ""));
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  const edits: SceneEdit[] = current
    ? current.stills.flatMap((still, i) => {
        const headline = headlines[i] ?? "";
        const picture = pictures[i] ?? "";
        const edit: SceneEdit = { scene: i + 1 };
        if (headline.trim() && headline !== still.headline) edit.headline = headline;
        if (picture) edit.picture = picture;
        return edit.headline !== undefined || edit.picture !== undefined ? [edit] : [];
      })
    : [];

  return (
    <section className="card studio-previews" aria-labelledby={`${uid}-title`} data-testid="storyboard-previews">
      <h3 id={`${uid}-title`}>Preview for free</h3>
      <p className="muted">
        See every scene as it will be rendered, change a line or a picture, then launch. Previews cost nothing. The pictures to choose from
        are the product photos in <Link href="/brand#brand-media">Brand → Media library</Link>.
      </p>
      <button type="button" className="btn btn-ghost" disabled={busy} onClick={() => void run({ ...request })}>
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
                <label className="field">
                  <span className="field-label">Scene {still.scene} headline</span>
                  <input
                    className="input"
                    type="text"
                    value={headlines[i] ?? ""}
                    maxLength={120}
                    onChange={(event) => setHeadlines((all) => all.map((h, j) => (j === i ? event.target.value : h)))}
                  />
                </label>
                <label className="field">
                  <span className="field-label">Scene {still.scene} picture</span>
                  <select
                    className="input"
                    value={pictures[i] ?? ""}
                    onChange={(event) => setPictures((all) => all.map((p, j) => (j === i ? event.target.value : p)))}
                  >
                    <option value="">Keep this picture</option>
                    {photos.map((photo) => (
                      <option key={photo.id} value={photo.id}>
                        {photo.filename}
                      </option>
                    ))}
                    <option value={NO_PICTURE}>No picture (the scene's colours)</option>
                  </select>
                </label>
              </li>
            ))}
          </ol>
          <button
            type="button"
            className="btn btn-ghost"
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

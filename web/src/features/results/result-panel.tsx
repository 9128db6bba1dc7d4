// A finished job's result, in the form it comes in: a local audit's report first, then the ad itself
// (a factory batch, a gallery of still ads, or the video player with captions), its voice-over and
// downloads, then what the type adds (creative score, shot list, reference analysis, optimizer's
// changes, brand kit). Each part shows only when the result has it.
import { Link } from "wouter";
import { CreativeScoreCard } from "./creative-score.tsx";
import { AuditReport } from "./audit-report.tsx";
import { BrandKit } from "./brand-kit.tsx";
import { BriefReading } from "./brief-reading.tsx";
import { Downloads } from "./downloads.tsx";
import { FactoryBatch } from "./factory-batch.tsx";
import { FormatPlayer } from "./format-player.tsx";
import { ImageGallery } from "./image-gallery.tsx";
import { Optimization } from "./optimization.tsx";
import { ReferenceAnalysis } from "./reference-analysis.tsx";
import { ResultWarnings } from "./result-warnings.tsx";
import { ShotList } from "./shot-list.tsx";
import { type Job, isRendered } from "./types.ts";
import { VoiceOver } from "./voice-over.tsx";
import "./results.css";

export function ResultPanel({ job }: { job: Job }) {
  const result = job.result!;
  const rendered = result.assets.filter(isRendered);
  const images = rendered.filter((a) => a.type === "image");
  const hasVideo = rendered.some((a) => a.type === "video");
  const captions = result.assets.find((a) => a.type === "captions");
  const audio = result.assets.find((a) => a.type === "audio");
  const pdf = result.assets.find((a) => a.type === "document");
  const variants = result.variants ?? [];
  const view = variants.length ? "batch" : images.length && !hasVideo ? "gallery" : rendered.length ? "player" : "none";

  return (
    <>
      {result.audit ? (
        <div className="card">
          <AuditReport audit={result.audit} pdfUrl={result.audit.reportUrl ?? pdf?.url ?? null} />
        </div>
      ) : null}

      <section className="card result-panel" aria-labelledby="result-title" data-testid="job-result" data-view={view}>
        <div className="card-head">
          <h2 id="result-title" className="card-title">
            {view === "gallery" ? "Your image ads" : view === "batch" ? "Your batch" : "Your ad"}
          </h2>
          <span className="muted result-count">
            {countLine(view, rendered.length, variants.length, new Set(rendered.map((a) => a.format)).size)}
          </span>
        </div>
        <ResultWarnings warnings={result.warnings ?? []} />
        {view === "batch" ? <FactoryBatch variants={variants} assets={result.assets} /> : null}
        {view === "gallery" ? <ImageGallery images={images} /> : null}
        {view === "player" ? <FormatPlayer assets={rendered} captions={captions} /> : null}
        {view === "none" ? <p className="muted">This job finished without an ad file.</p> : null}
        <VoiceOver audio={audio} captions={captions} voiceModel={result.models?.voice} hasVideo={hasVideo} />
        <Downloads assets={result.assets} withAds={view === "player"} />
        <p className="result-next">
          <Link
            href={`/studio?type=ad-optimizer&project=${encodeURIComponent(job.jobId)}`}
            className="btn btn-ghost btn-small"
            data-testid="optimize-this"
          >
            Improve this ad with the Ad Optimizer
          </Link>
        </p>
      </section>

      {result.creativeScore ? (
        <div className="card">
          <CreativeScoreCard score={result.creativeScore} note="Scored on the storyboard before rendering." folded />
        </div>
      ) : null}
      {result.optimization ? (
        <div className="card">
          <Optimization optimization={result.optimization} />
        </div>
      ) : null}
      {result.analysis ? (
        <div className="card">
          <ReferenceAnalysis analysis={result.analysis} />
        </div>
      ) : null}
      {result.briefReading?.length ? (
        <div className="card">
          <BriefReading reading={result.briefReading} />
        </div>
      ) : null}
      {result.shotList?.length ? (
        <div className="card">
          <ShotList shots={result.shotList} />
        </div>
      ) : null}
      {result.brandKit ? (
        <div className="card">
          <BrandKit kit={result.brandKit} />
        </div>
      ) : null}
    </>
  );
}

function countLine(view: string, rendered: number, variants: number, formats: number): string {
  if (view === "batch") return `${variants} ${variants === 1 ? "variant" : "variants"}`;
  if (view === "gallery") return `${rendered} ${rendered === 1 ? "image" : "images"}`;
  if (view === "player") return `${formats} ${formats === 1 ? "format" : "formats"}`;
  return "";
}

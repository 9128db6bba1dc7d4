// A factory run's batch: every variant of every format, grouped by format, each with its hook, playable
// (or viewable) and downloadable.
import type { FactoryVariant } from "@adgen/schema";
import { cssAspect, mediaSrc, ratioId } from "../../lib/workflow.ts";
import { FormatGroups } from "./format-groups.tsx";
import { DownloadLink } from "./download-link.tsx";
import type { Asset } from "./types.ts";

/** `assets`: the result's files, for each variant's thumbnail where it is one of them. */
export function FactoryBatch({ variants, assets }: { variants: readonly FactoryVariant[]; assets: readonly Asset[] }) {
  return (
    <div className="factory-batch" data-testid="factory-batch">
      <FormatGroups items={variants} idPrefix="batch" noun={["variant", "variants"]}>
        {(inFormat, format) =>
          inFormat.map((v) => (
            <li key={v.url} className="gallery-item" data-testid="batch-variant" data-format={format} data-variant={v.variant}>
              <div className="gallery-image" style={{ aspectRatio: cssAspect(format) }}>
                {v.type === "video" ? (
                  // biome-ignore lint/a11y/useMediaCaption: factory variants carry their words on screen, with no voice-over
                  <video
                    controls
                    playsInline
                    preload="metadata"
                    src={mediaSrc(v.url)}
                    poster={mediaSrc(assets.find((a) => a.url === v.url)?.thumbnail)}
                    aria-label={`${format} variant ${v.variant}`}
                  />
                ) : (
                  <img src={mediaSrc(v.url)} alt={`${format} variant ${v.variant}: ${v.hook}`} loading="lazy" />
                )}
              </div>
              <div className="gallery-caption">
                <p className="gallery-name">
                  <strong>Variant {v.variant}</strong>
                  <span className="badge">{v.type === "video" ? "Video" : "Image"}</span>
                </p>
                <p className="gallery-headline">{v.hook}</p>
                <DownloadLink url={v.url} testId={`download-batch-${ratioId(format)}-${v.variant.toLowerCase()}`} />
              </div>
            </li>
          ))
        }
      </FormatGroups>
    </div>
  );
}

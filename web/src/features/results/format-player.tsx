// Videos (or single stills) one format at a time: a tab per format with its thumbnail, and the player.
// A narrated ad's captions (the `captions` asset, WebVTT) are the video's captions track, off by default: the
// studio burns the same captions into the picture, so a track shown too would put every line on screen twice.
import { type KeyboardEvent, useId, useMemo, useState } from "react";
import { cssAspect, formatLabel, mediaSrc, ratioId, sortFormats } from "../../lib/workflow.ts";
import { type Asset, isRendered } from "./types.ts";

interface FormatPlayerProps {
  assets: readonly Asset[];
  /** The captions (WebVTT) of the voice-over, if the ad has one. */
  captions: Asset | undefined;
}

export function FormatPlayer({ assets, captions }: FormatPlayerProps) {
  const uid = useId();
  const perFormat = useMemo(() => {
    // One tab per format: its first rendered asset.
    const firsts = assets.filter((a, i, all) => isRendered(a) && all.findIndex((b) => isRendered(b) && b.format === a.format) === i);
    const order = sortFormats(firsts.map((a) => a.format));
    return [...firsts].sort((a, b) => order.indexOf(a.format) - order.indexOf(b.format));
  }, [assets]);
  const [active, setActive] = useState(() => perFormat[0]?.format ?? "");

  function onTabKey(event: KeyboardEvent, index: number) {
    const delta = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (!delta) return;
    event.preventDefault();
    const next = perFormat[(index + delta + perFormat.length) % perFormat.length];
    if (!next) return;
    setActive(next.format);
    document.getElementById(`${uid}-tab-${ratioId(next.format)}`)?.focus();
  }

  const only = perFormat.length === 1 ? perFormat[0] : undefined;
  if (perFormat.length === 0) return null;
  if (only) return <Player asset={only} captions={captions} />;
  return (
    <div className="format-player">
      <div className="format-tabs" role="tablist" aria-label="Formats">
        {perFormat.map((asset, i) => {
          const selected = asset.format === active;
          return (
            <button
              key={asset.format}
              id={`${uid}-tab-${ratioId(asset.format)}`}
              type="button"
              role="tab"
              aria-selected={selected}
              aria-controls={`${uid}-panel-${ratioId(asset.format)}`}
              tabIndex={selected ? 0 : -1}
              className={`format-tab${selected ? " is-selected" : ""}`}
              onClick={() => setActive(asset.format)}
              onKeyDown={(e) => onTabKey(e, i)}
              data-testid={`tab-${ratioId(asset.format)}`}
            >
              <span className="format-tab-thumb" style={{ aspectRatio: cssAspect(asset.format) }}>
                {asset.thumbnail ? <img src={mediaSrc(asset.thumbnail)} alt="" loading="lazy" /> : null}
              </span>
              <span className="format-tab-text">
                <span className="format-ratio">{asset.format}</span>
                <span className="format-platforms">{formatLabel(asset.format)}</span>
              </span>
            </button>
          );
        })}
      </div>
      {perFormat.map((asset) => (
        <div
          key={asset.format}
          id={`${uid}-panel-${ratioId(asset.format)}`}
          role="tabpanel"
          aria-labelledby={`${uid}-tab-${ratioId(asset.format)}`}
          hidden={asset.format !== active}
          className="format-panel"
        >
          <Player asset={asset} captions={captions} />
        </div>
      ))}
    </div>
  );
}

function Player({ asset, captions }: { asset: Asset; captions: Asset | undefined }) {
  const src = mediaSrc(asset.url);
  const id = ratioId(asset.format);
  const tall = asset.format === "9:16" || asset.format === "4:5";
  return (
    <div className={`player${tall ? " player-tall" : ""}`}>
      <div
        className="player-box"
        style={{ aspectRatio: asset.width && asset.height ? `${asset.width} / ${asset.height}` : cssAspect(asset.format) }}
      >
        {asset.type === "video" ? (
          // biome-ignore lint/a11y/useMediaCaption: a captions track is added whenever the ad has speech; ads without a voice-over carry their words on screen
          <video
            controls
            playsInline
            preload="metadata"
            src={src}
            poster={mediaSrc(asset.thumbnail)}
            data-testid={`video-${id}`}
            aria-label={`${asset.format} video`}
          >
            {captions ? (
              <track kind="captions" src={mediaSrc(captions.url)} srcLang="en" label="English" data-testid={`captions-${id}`} />
            ) : null}
          </video>
        ) : (
          <img
            src={src}
            alt={asset.headline ? `${asset.format} ad: ${asset.headline}` : `${asset.format} ad`}
            data-testid={`image-${id}`}
          />
        )}
      </div>
    </div>
  );
}

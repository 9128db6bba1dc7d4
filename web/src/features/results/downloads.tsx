// Every file the job made, to download: each format's ad (and premium's alternate cut), and the report,
// captions and voice-over.
import { formatNumber } from "../../lib/format.ts";
import { ratioId, sortFormats } from "../../lib/workflow.ts";
import { DownloadLink } from "./download-link.tsx";
import { type Asset, isRendered } from "./types.ts";

const OTHER_LABELS: Record<string, string> = {
  document: "Report PDF",
  captions: "Captions WebVTT",
  audio: "Voice-over WAV",
};

/** `withAds`: list each format's ad too (a gallery or batch already offers every file beside its picture). */
export function Downloads({ assets, withAds }: { assets: readonly Asset[]; withAds: boolean }) {
  // Each format's first ad, then the other files (report, captions, voice-over).
  const firsts = withAds
    ? assets.filter((a, i, all) => isRendered(a) && all.findIndex((b) => isRendered(b) && b.format === a.format) === i)
    : [];
  const order = sortFormats(firsts.map((a) => a.format));
  // Premium's alternate cuts (variant "B", opening on another hook) follow their format's ad.
  const alternates = withAds ? assets.filter((a) => isRendered(a) && a.type === "video" && a.variant && !firsts.includes(a)) : [];
  const rendered = [...firsts, ...alternates].sort((a, b) => order.indexOf(a.format) - order.indexOf(b.format));
  const others = assets.filter((a) => !isRendered(a));
  if (rendered.length + others.length === 0) return null;
  return (
    <div className="downloads">
      <h3 className="downloads-title">Downloads</h3>
      <ul className="download-list">
        {rendered.map((asset) => (
          <li key={asset.url}>
            <DownloadLink
              url={asset.url}
              testId={`download-${ratioId(asset.format)}${asset.variant ? `-${asset.variant.toLowerCase()}` : ""}`}
            >
              {asset.format} {asset.type === "video" ? "MP4" : "image"}
              {asset.variant ? `, cut ${asset.variant}${asset.headline ? ` (opens on “${asset.headline}”)` : ""}` : null}
            </DownloadLink>
            <span className="muted download-meta">
              {asset.width && asset.height ? `${asset.width}×${asset.height}` : null}
              {asset.type === "video" && asset.duration ? ` · ${formatNumber(Math.round(asset.duration * 10) / 10)} s` : null}
            </span>
          </li>
        ))}
        {others.map((asset) => (
          <li key={asset.url}>
            <DownloadLink url={asset.url} testId={`download-${asset.type}`}>
              {OTHER_LABELS[asset.type] ?? asset.format.toUpperCase()}
            </DownloadLink>
          </li>
        ))}
      </ul>
    </div>
  );
}

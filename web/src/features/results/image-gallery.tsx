// Still image ads as a gallery: grouped by format, each variant with its letter, headline and layout,
// and its own download.
import { mediaSrc, ratioId } from "../../lib/workflow.ts";
import { FormatGroups } from "./format-groups.tsx";
import { DownloadLink } from "./download-link.tsx";
import type { Asset } from "./types.ts";

export function ImageGallery({ images }: { images: readonly Asset[] }) {
  return (
    <div className="image-gallery" data-testid="image-gallery">
      <FormatGroups items={images} idPrefix="gallery" noun={["image", "images"]}>
        {(inFormat, format) =>
          inFormat.map((asset, i) => {
            const name = asset.variant ? `Variant ${asset.variant}` : inFormat.length > 1 ? `Image ${i + 1}` : "Image";
            return (
              <li key={asset.url} className="gallery-item" data-testid="gallery-item" data-format={format} data-variant={asset.variant}>
                <a className="gallery-image" href={mediaSrc(asset.url)} target="_blank" rel="noreferrer">
                  <img
                    src={mediaSrc(asset.url)}
                    alt={asset.headline ? `${name}: ${asset.headline}` : `${format} ${name.toLowerCase()}`}
                    loading="lazy"
                    width={asset.width}
                    height={asset.height}
                  />
                </a>
                <div className="gallery-caption">
                  <p className="gallery-name">
                    <strong>{name}</strong>
                    {asset.layout ? <span className="badge gallery-layout">{asset.layout}</span> : null}
                  </p>
                  {asset.headline ? <p className="gallery-headline">{asset.headline}</p> : null}
                  <p className="muted gallery-meta">
                    {[asset.width && asset.height ? `${asset.width}×${asset.height}` : null, fileKind(asset.url)].filter(Boolean).join(" ")}
                  </p>
                  <DownloadLink url={asset.url} testId={`download-${ratioId(format)}-${(asset.variant ?? String(i + 1)).toLowerCase()}`} />
                </div>
              </li>
            );
          })
        }
      </FormatGroups>
    </div>
  );
}

/** "PNG" for …/ad-a.png: the file's kind, from its name. */
function fileKind(url: string): string | null {
  const ext = /\.([a-z0-9]{2,4})(?:$|[?#])/i.exec(url)?.[1];
  return ext ? ext.toUpperCase() : null;
}

// The brand kit a Brand Clone read from the brand's site: colours, logo, fonts, tone and claims. It is
// saved to the brand profile, where it can be edited.
import type { BrandKit as BrandKitData } from "@adgen/schema";
import { Link } from "wouter";

export function BrandKit({ kit }: { kit: BrandKitData }) {
  return (
    <section className="result-section" aria-labelledby="brand-kit-title" data-testid="brand-kit">
      <h3 id="brand-kit-title" className="result-section-title">
        Brand kit
      </h3>
      <p className="muted">
        Read from{" "}
        <a href={kit.sourceUrl} target="_blank" rel="noreferrer noopener">
          {kit.sourceUrl}
        </a>{" "}
        and saved to your brand profile (<Link href="/brand">edit it on the Brand page</Link>).
      </p>
      <div className="brand-kit-grid">
        <div className="brand-kit-block">
          <h4 className="result-subtitle">Colours</h4>
          {kit.colors.length ? (
            <ul className="kit-swatches">
              {kit.colors.map((c) => (
                <li key={c} className="kit-swatch" data-testid="brand-kit-colour">
                  <span className="kit-swatch-chip" style={{ background: c }} aria-hidden="true" />
                  <span className="mono">{c}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">None found</p>
          )}
        </div>
        <div className="brand-kit-block">
          <h4 className="result-subtitle">Logo</h4>
          {kit.logoUrl ? (
            <img className="kit-logo" src={kit.logoUrl} alt="The brand's logo" referrerPolicy="no-referrer" />
          ) : (
            <p className="muted">None found</p>
          )}
        </div>
        <div className="brand-kit-block">
          <h4 className="result-subtitle">Fonts</h4>
          {kit.fonts.length ? (
            <ul className="chip-list">
              {kit.fonts.map((f) => (
                <li key={f} className="chip" style={{ fontFamily: `"${f.replaceAll('"', "")}", var(--font-sans)` }}>
                  {f}
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">None found</p>
          )}
        </div>
        <div className="brand-kit-block">
          <h4 className="result-subtitle">Tone</h4>
          <p>{kit.tone ?? <span className="muted">Not clear from the site</span>}</p>
        </div>
      </div>
      {kit.claims.length ? (
        <>
          <h4 className="result-subtitle">Claims</h4>
          <ul className="kit-claims">
            {kit.claims.map((claim) => (
              <li key={claim}>“{claim}”</li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

// The contact sheets `pnpm ad-review` writes: one HTML page, a section per brief with what it asked, how
// the studio read it, the creative score, every frame with the text OCR read off it, and each defect.
import { relative } from "node:path";
import type { ReviewBrief } from "./briefs.ts";
import type { Finding, FrameReading } from "./checks.ts";

export interface ReviewedAd {
  brief: ReviewBrief;
  status: "completed" | "failed";
  why?: string;
  jobId?: string;
  result?: any;
  frames: FrameReading[];
  findings: Finding[];
  /** Where index.html is written: frame paths are made relative to it. */
  outDir: string;
}

const html = (text: string) => text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] ?? c);

function section(ad: ReviewedAd): string {
  const { brief, result } = ad;
  const reading = (result?.briefReading ?? []) as { sentence: string; kind: string }[];
  const score = result?.creativeScore;
  const frames = ad.frames
    .map(
      (f) => `<figure class="${ad.findings.some((x) => x.frame === f.file) ? "bad" : ""}">
<img src="${html(relative(ad.outDir, f.file))}" loading="lazy"><figcaption>${f.atSec.toFixed(1)} s · ${html(f.lines.join(" / ") || "(no text)")}</figcaption></figure>`,
    )
    .join("\n");
  return `<section id="${brief.id}"><h2>${html(brief.id)} <small>${html(String(brief.launch.type))} · ${html(String(brief.launch.quality ?? "standard"))}</small></h2>
<p class="why">${html(brief.why)}</p>
<pre>${html(JSON.stringify(brief.launch, null, 1))}</pre>
${ad.status === "failed" ? `<p class="bad">Failed: ${html(ad.why ?? "")}</p>` : ""}
${reading.length ? `<h3>How the brief was read</h3><ul>${reading.map((r) => `<li><b>${html(r.kind)}</b> ${html(r.sentence)}</li>`).join("")}</ul>` : ""}
${score ? `<p>Creative score: ${html(String(score.total ?? score.score ?? ""))} ${html(String(score.label ?? ""))}</p>` : ""}
${result?.warnings?.length ? `<p>Warnings: ${html(result.warnings.join(" · "))}</p>` : ""}
<h3>Defects found (${ad.findings.length})</h3><ul class="defects">${ad.findings.map((f) => `<li>${html(f.defect)}</li>`).join("") || "<li>none found by the checks: look at the frames</li>"}</ul>
<div class="frames">${frames}</div></section>`;
}

export function contactSheet(ads: ReviewedAd[]): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ad review</title><style>
body{font:14px system-ui,sans-serif;margin:24px;background:#f6f6f6}section{background:#fff;margin:0 0 24px;padding:16px;border-radius:8px}
.frames{display:flex;flex-wrap:wrap;gap:8px}figure{margin:0;width:180px}figure img{width:180px;border:1px solid #ccc}
figure.bad img{border:3px solid #d00}figcaption{font-size:11px;color:#444}.bad,.defects li{color:#a00}pre{font-size:11px;white-space:pre-wrap}
</style></head><body><h1>Ad review: ${ads.length} briefs</h1>
<ul>${ads.map((a) => `<li><a href="#${a.brief.id}">${html(a.brief.id)}</a>: ${a.status}, ${a.findings.length} defect(s)</li>`).join("")}</ul>
${ads.map(section).join("\n")}</body></html>`;
}

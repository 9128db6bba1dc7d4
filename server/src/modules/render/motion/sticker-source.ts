// Stickers: a rating with its stars (only from a fact: the copywriter writes each sticker's exact words), a
// price or offer badge, "new", a fact. Each lands on a spring on the beat after the copy is in, in a free spot of
// the safe area: never over the copy, the product or the logo, never outside the platform's safe zone.
import type { SKRSContext2D } from "@napi-rs/canvas";
import { contrast, parseHex, readableOn } from "../color.ts";
import type { Rect } from "../layout-base.ts";
import type { Sticker } from "../types.ts";
import { defineFrameSource, rgb, type SourceContext } from "./frame-source.ts";
import { spring } from "./keyframes.ts";
import { lineRect } from "./type-sources.ts";

const overlaps = (a: Rect, b: Rect, gap = 0) =>
  a.x < b.x + b.w + gap && b.x < a.x + a.w + gap && a.y < b.y + b.h + gap && b.y < a.y + a.h + gap;

function starPath(ctx: SKRSContext2D, cx: number, cy: number, r: number) {
  ctx.beginPath();
  for (let i = 0; i < 10; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    const rr = i % 2 ? r * 0.45 : r;
    ctx.lineTo(cx + Math.cos(a) * rr, cy + Math.sin(a) * rr);
  }
  ctx.closePath();
}

/** The sticker drawn once as a sprite: a pill in the accent (the text in black or white, whichever reads). */
function stickerSprite(context: SourceContext, sticker: Sticker, size: number) {
  const { createCanvas, font, spec } = context;
  const measure = createCanvas(4, 4).getContext("2d");
  measure.font = font("sans", size);
  const text = sticker.text.slice(0, 48);
  const stars = sticker.kind === "rating" ? 5 : 0;
  const starR = size * 0.5;
  const starsW = stars ? stars * starR * 2.1 + size * 0.4 : 0;
  const pad = Math.round(size * 0.6);
  const w = Math.ceil(starsW + measure.measureText(text).width + 2 * pad);
  const h = Math.ceil(size * 1.9);
  const shadow = Math.round(size * 0.3);
  const sprite = createCanvas(w + 2 * shadow, h + 2 * shadow);
  const g = sprite.getContext("2d");
  const fill = sticker.kind === "rating" || sticker.kind === "fact" ? ([255, 255, 255] as const) : parseHex(spec.brand.accent);
  const ink = readableOn(fill, contrast(fill, [17, 17, 17]) >= 4.5 ? [17, 17, 17] : [255, 255, 255]);
  g.shadowColor = "rgba(0,0,0,0.35)";
  g.shadowBlur = shadow;
  g.shadowOffsetY = shadow * 0.3;
  g.fillStyle = rgb(fill);
  g.beginPath();
  g.roundRect(shadow, shadow, w, h, sticker.kind === "new" ? h / 2 : h * 0.28);
  g.fill();
  g.shadowColor = "transparent";
  if (stars) {
    for (let i = 0; i < stars; i++) {
      const cx = shadow + pad + starR + i * starR * 2.1;
      const cy = shadow + h / 2;
      starPath(g, cx, cy, starR);
      g.fillStyle = "#d8d8d8";
      g.fill();
      const part = Math.max(0, Math.min(1, (sticker as { stars: number }).stars - i));
      if (part > 0) {
        g.save();
        g.beginPath();
        g.rect(cx - starR, cy - starR, starR * 2 * part, starR * 2);
        g.clip();
        starPath(g, cx, cy, starR);
        // Amber with a dark edge: the stars are not text, the number beside them is.
        g.fillStyle = "#f5a300";
        g.fill();
        g.restore();
      }
    }
  }
  g.font = font("sans", size);
  g.fillStyle = rgb(ink);
  g.fillText(text, shadow + pad + starsW, shadow + h / 2 + size * 0.36);
  return { sprite, w, h, shadow };
}

defineFrameSource("stickers", (context) => {
  const { spec, choreo } = context;
  const { layout, width: W, height: H } = spec;
  const list = spec.scene.stickers.slice(0, 2);
  if (!list.length) return null;
  const u = Math.min(W, H);
  const size = Math.round(Math.max(14, u * 0.038));
  const blocked: Rect[] = [
    ...layout.texts.map(lineRect),
    ...(layout.subject ? [layout.subject] : []),
    ...(layout.logo ? [layout.logo.plate] : []),
    ...layout.boxes.filter((b) => b.w * b.h < 0.4 * W * H && b.h > H * 0.012),
  ];
  const safe = layout.safe;
  const placed: { sprite: ReturnType<typeof stickerSprite>; x: number; y: number; at: number; tilt: number }[] = [];
  const gap = Math.round(u * 0.02);
  const textTop = Math.min(...layout.texts.map((t) => lineRect(t).y), safe.y + safe.h);
  const textBottom = Math.max(...layout.texts.map((t) => lineRect(t).y + lineRect(t).h), safe.y);
  for (const [k, sticker] of list.entries()) {
    const s = stickerSprite(context, sticker, size);
    if (s.w > safe.w) continue;
    const ys = [safe.y, textTop - gap - s.h, textBottom + gap, safe.y + safe.h - s.h, safe.y + (safe.h - s.h) / 2];
    const xs = [safe.x, safe.x + safe.w - s.w, safe.x + (safe.w - s.w) / 2];
    let spot: Rect | null = null;
    for (const y of ys) {
      for (const x of xs) {
        const r = { x, y, w: s.w, h: s.h };
        if (y < safe.y || y + s.h > safe.y + safe.h) continue;
        if (blocked.some((b) => overlaps(r, b, gap / 2))) continue;
        spot = r;
        break;
      }
      if (spot) break;
    }
    if (!spot) continue;
    blocked.push(spot);
    placed.push({ sprite: s, x: spot.x, y: spot.y, at: choreo.stickerAt + k * spec.beat, tilt: k % 2 ? 0.05 : -0.06 });
  }
  if (!placed.length) return null;
  return {
    readNextFrame(t, ctx) {
      const shift = choreo.frameShift(t);
      for (const p of placed) {
        const e = (t - p.at) / 0.6;
        if (e <= 0) continue;
        const s = spring(Math.min(1, e));
        const { sprite, w, h, shadow } = p.sprite;
        ctx.save();
        ctx.translate(p.x + w / 2 + shift, p.y + h / 2);
        ctx.rotate(p.tilt * (1 - s) * 3 + p.tilt * 0.4);
        ctx.scale(s, s);
        ctx.drawImage(sprite, -w / 2 - shadow, -h / 2 - shadow);
        ctx.restore();
      }
    },
  };
});

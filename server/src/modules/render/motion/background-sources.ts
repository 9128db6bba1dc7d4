// The layers behind the type: a living background (a drifting gradient, brand-colour shapes in parallax, a
// light leak) and the picture (cover-fitted under a moving camera, or the product set smaller over its blurred
// backdrop, entering on a spring, floating and tilting).
import { parseHex } from "../color.ts";
import { pictureFillsFrame } from "../graph.ts";
import type { Rect } from "../layout-base.ts";
import { noise } from "./choreography.ts";
import { defineFrameSource, rgb } from "./frame-source.ts";
import { spring } from "./keyframes.ts";

/** The picture's sprite is this much larger than its rectangle, so the camera can push in without blurring. */
const OVERSCAN = 1.2;

defineFrameSource("gradient", ({ spec, choreo, createCanvas }) => {
  const { width: W, height: H, layout } = spec;
  // Hidden under a picture that covers the frame (whole, or an inset over its blurred backdrop): not drawn.
  const rect = layout.picture?.rect;
  const covered = !!rect && rect.x <= 0 && rect.y <= 0 && rect.w >= W && rect.h >= H;
  if (spec.picture && (pictureFillsFrame(layout) || covered)) return null;
  const sw = Math.ceil(W * 1.3);
  const sh = Math.ceil(H * 1.3);
  const sprite = createCanvas(sw, sh);
  const g = sprite.getContext("2d");
  const grad = g.createLinearGradient(0, 0, sw, sh);
  grad.addColorStop(0, rgb(layout.gradient.from));
  grad.addColorStop(1, rgb(layout.gradient.to));
  g.fillStyle = grad;
  g.fillRect(0, 0, sw, sh);
  // Brand-colour shapes: soft discs, each its own sprite, drifting at their own speed (parallax).
  const colors = [spec.brand.primary, spec.brand.secondary, spec.brand.accent].map(parseHex);
  const u = Math.min(W, H);
  const discs = colors.map((c, k) => {
    const r = Math.round(u * (0.32 + 0.1 * k));
    const disc = createCanvas(2 * r, 2 * r);
    const d = disc.getContext("2d");
    const rg = d.createRadialGradient(r, r, 0, r, r, r);
    rg.addColorStop(0, rgb(c, 0.38));
    rg.addColorStop(1, rgb(c, 0));
    d.fillStyle = rg;
    d.fillRect(0, 0, 2 * r, 2 * r);
    return { disc, r, x: W * (0.15 + 0.35 * k), y: H * (0.2 + 0.28 * ((k * 2) % 3)), speed: 0.25 + 0.2 * k, phase: k * 2.1 };
  });
  return {
    readNextFrame(t, ctx) {
      const a = t * 0.35;
      const shift = choreo.frameShift(t) * 0.5;
      ctx.drawImage(sprite, -(sw - W) / 2 + Math.sin(a) * W * 0.1 + shift, -(sh - H) / 2 + Math.cos(a * 0.8) * H * 0.08);
      for (const s of discs) {
        const x = s.x + Math.sin(t * s.speed + s.phase) * W * 0.12 + shift * (1 + s.speed);
        const y = s.y + Math.cos(t * s.speed * 0.8 + s.phase) * H * 0.06;
        ctx.drawImage(s.disc, x - s.r, y - s.r);
      }
    },
  };
});

/** The picture cover-fitted into w×h round `focus`, in grey when `mono`, blurred by `blur` px. */
function coverSprite(
  context: Parameters<Parameters<typeof defineFrameSource>[1]>[0],
  w: number,
  h: number,
  focus: { x: number; y: number },
  mono: boolean,
  blur = 0,
  part?: { x: number; y: number; w: number; h: number },
) {
  const img = context.picture!;
  const sprite = context.createCanvas(Math.max(1, Math.round(w)), Math.max(1, Math.round(h)));
  const g = sprite.getContext("2d");
  const src = part
    ? { x: img.width * part.x, y: img.height * part.y, w: img.width * part.w, h: img.height * part.h }
    : { x: 0, y: 0, w: img.width, h: img.height };
  const k = Math.max(w / src.w, h / src.h);
  const cw = w / k;
  const ch = h / k;
  const cx = Math.min(Math.max(src.x + src.w * (part ? 0.5 : focus.x) - cw / 2, src.x), src.x + src.w - cw);
  const cy = Math.min(Math.max(src.y + src.h * (part ? 0.5 : focus.y) - ch / 2, src.y), src.y + src.h - ch);
  const filters = [mono ? "grayscale(1)" : "", blur ? `blur(${blur}px)` : ""].filter(Boolean).join(" ");
  if (filters) g.filter = filters;
  g.drawImage(img, cx, cy, cw, ch, 0, 0, w, h);
  return sprite;
}

defineFrameSource("picture", (context) => {
  const { spec, choreo } = context;
  const { layout, width: W, height: H } = spec;
  if (!context.picture) return null;
  const placement = layout.picture;
  const rect: Rect = placement?.rect ?? { x: 0, y: 0, w: W, h: H };
  const focus = placement?.focus ?? { x: 0.5, y: 0.5 };
  const mono = !!placement?.mono;
  const subject = layout.subject ?? { x: rect.x + rect.w / 2, y: rect.y + rect.h / 2, w: 0, h: 0 };
  const anchor = { x: subject.x + subject.w / 2, y: subject.y + subject.h / 2 };
  const inset = placement?.inset;
  // The whole picture (or, round an inset, its blurred backdrop).
  const blur = inset ? Math.round(Math.min(rect.w, rect.h) / 24) : 0;
  const back = coverSprite(context, rect.w * OVERSCAN, rect.h * OVERSCAN, focus, mono, blur, inset ? placement?.fill : undefined);
  // The product set smaller: its own sprite, with a soft shadow, drawn once.
  const card = inset
    ? (() => {
        const pad = Math.round(Math.min(inset.w, inset.h) * 0.08);
        const sharp = coverSprite(context, inset.w, inset.h, focus, mono);
        const sprite = context.createCanvas(inset.w + 2 * pad, inset.h + 2 * pad);
        const g = sprite.getContext("2d");
        g.shadowColor = "rgba(0,0,0,0.45)";
        g.shadowBlur = pad * 0.8;
        g.shadowOffsetY = pad * 0.3;
        g.beginPath();
        g.roundRect(pad, pad, inset.w, inset.h, Math.round(Math.min(inset.w, inset.h) * 0.04));
        g.save();
        g.fillStyle = "#000";
        g.fill();
        g.restore();
        g.shadowColor = "transparent";
        g.clip();
        g.drawImage(sharp, pad, pad);
        return { sprite, pad };
      })()
    : null;
  const tint = layout.imageTint;
  const region = new Path2DLike(rect);
  return {
    readNextFrame(t, ctx) {
      const cam = choreo.camera(t);
      const shift = choreo.frameShift(t);
      ctx.save();
      region.clip(ctx);
      // The camera zooms about the product, so it stays where the layout put it, clear of the type.
      const ax = inset ? rect.x + rect.w / 2 : anchor.x;
      const ay = inset ? rect.y + rect.h / 2 : anchor.y;
      ctx.translate(ax + cam.dx + shift, ay + cam.dy);
      ctx.rotate(cam.rot);
      // An inset's backdrop moves less (parallax) but always overfills its zone, so a jitter never shows an edge.
      const z = (inset ? 1.05 + (cam.z - 1) * 0.6 : cam.z) / OVERSCAN;
      ctx.scale(z, z);
      const ox = (rect.x - ax) * OVERSCAN - (rect.w * (OVERSCAN - 1)) / 2;
      const oy = (rect.y - ay) * OVERSCAN - (rect.h * (OVERSCAN - 1)) / 2;
      ctx.drawImage(back, ox, oy);
      ctx.restore();
      if (card && inset) {
        // The product enters on a spring, then floats and tilts (parallax over its backdrop).
        const s = choreo.hook ? 1 : 0.75 + 0.25 * spring(Math.min(1, t / 0.7));
        const lift = choreo.hook ? 0 : (1 - spring(Math.min(1, t / 0.7))) * H * 0.06;
        const float = Math.sin((2 * Math.PI * t) / 3.2) * H * 0.008;
        const tilt = Math.sin((2 * Math.PI * t) / 4.1) * 0.02 + (choreo.jitter ? 0.01 * noise(Math.floor(t * 15), 5) : 0);
        const cx = rect.x + inset.x + inset.w / 2 + shift * 1.2;
        const cy = rect.y + inset.y + inset.h / 2 + lift + float;
        ctx.save();
        ctx.translate(cx, cy);
        ctx.rotate(tilt);
        ctx.scale(s, s);
        ctx.drawImage(card.sprite, -inset.w / 2 - card.pad, -inset.h / 2 - card.pad);
        ctx.restore();
      }
      if (tint) {
        ctx.fillStyle = rgb(tint.color, tint.alpha);
        ctx.fillRect(rect.x, rect.y, rect.w, rect.h);
      }
    },
  };
});

/** A rectangle to clip to (the picture's zone). */
class Path2DLike {
  constructor(private readonly r: Rect) {}
  clip(ctx: { beginPath(): void; rect(x: number, y: number, w: number, h: number): void; clip(): void }) {
    ctx.beginPath();
    ctx.rect(this.r.x, this.r.y, this.r.w, this.r.h);
    ctx.clip();
  }
}

defineFrameSource("light-leak", ({ spec, createCanvas }) => {
  if (!(spec.premium || spec.style === "cinematic" || spec.style === "editorial")) return null;
  const { width: W, height: H } = spec;
  const r = Math.round(Math.max(W, H) * 0.45);
  const sprite = createCanvas(2 * r, 2 * r);
  const g = sprite.getContext("2d");
  const rg = g.createRadialGradient(r, r, 0, r, r, r);
  rg.addColorStop(0, "rgba(255,196,140,0.22)");
  rg.addColorStop(1, "rgba(255,196,140,0)");
  g.fillStyle = rg;
  g.fillRect(0, 0, 2 * r, 2 * r);
  return {
    readNextFrame(t, ctx) {
      const p = (t * 0.12 + spec.scene.variant * 0.37) % 1.4;
      ctx.save();
      ctx.globalCompositeOperation = "screen";
      ctx.drawImage(sprite, -r + W * (p - 0.2), -r + H * (0.1 + 0.25 * p));
      ctx.restore();
    },
  };
});

// The layers that read: the panels and markers behind the copy, the copy itself as kinetic type (each line a
// word group arriving on the beat, word after word, the key word underlined in the accent), and the call to
// action pulsing on the beat. Every word is a sprite drawn once per scene, shadow and outline included.
import type { Canvas, SKRSContext2D } from "@napi-rs/canvas";
import { parseHex, readableOn } from "../color.ts";
import type { BoxItem, Rect, TextItem } from "../layout-base.ts";
import type { Choreography } from "./choreography.ts";
import { defineFrameSource, rgb, type SourceContext } from "./frame-source.ts";
import { ease, spring } from "./keyframes.ts";

const overlaps = (a: Rect, b: Rect) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/** The box a line of type covers. */
export const lineRect = (t: TextItem): Rect => ({
  x: t.centerX - t.width / 2,
  y: t.baseline - t.size * 0.95,
  w: t.width,
  h: t.size * 1.25,
});

const words = (s: string) =>
  s
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/[^\p{L}\p{N}%$€£]/gu, ""))
    .filter(Boolean);

/** True when `line` is (part of) the call to action. */
const isCta = (line: string, cta?: string) => {
  if (!cta) return false;
  const c = words(cta).join(" ");
  const l = words(line).join(" ");
  return !!l && c.includes(l);
};

/** How a line's group moves at `t` (its own start): offset, scale, opacity and reveal. */
function groupPose(choreo: Choreography, start: number, t: number, size: number, W: number) {
  if (choreo.hook) return { dx: 0, dy: 0, s: 1, a: 1, reveal: 1 };
  const p = (t - start) / choreo.textSec;
  if (p <= 0) return { dx: 0, dy: 0, s: 1, a: 0, reveal: 0 };
  const a = ease("quad", p * 2.5);
  switch (choreo.text) {
    case "pop":
      return { dx: 0, dy: 0, s: 0.35 + 0.65 * ease("back", p), a, reveal: 1 };
    case "slide":
      return { dx: W * 0.08 * (1 - ease("expo", p)), dy: 0, s: 1, a, reveal: 1 };
    case "mask":
      return { dx: 0, dy: size * 0.9 * (1 - ease("out", p)), s: 1, a: 1, reveal: ease("out", p) };
    default:
      return { dx: 0, dy: size * 0.6 * (1 - ease("out", p)), s: 1, a, reveal: 1 };
  }
}

interface WordSprite {
  sprite: Canvas;
  /** Where the sprite's origin goes, and the word's centre (the pop's pivot). */
  x: number;
  y: number;
  cx: number;
  cy: number;
  underline: Rect | null;
}

function wordSprites(context: SourceContext, line: TextItem, emphasis: string[]): WordSprite[] {
  const { createCanvas, font } = context;
  const face = line.face ?? "sans";
  const measureCanvas = createCanvas(4, 4).getContext("2d");
  measureCanvas.font = font(face, line.size);
  const full = measureCanvas.measureText(line.text).width || line.width;
  const left = line.centerX - full / 2;
  const pad = Math.ceil(line.size * 0.35 + (line.outline ?? 0));
  const parts = line.text.split(" ");
  let offset = 0;
  return parts.map((word, k) => {
    const prefix = parts.slice(0, k).join(" ") + (k ? " " : "");
    offset = measureCanvas.measureText(prefix).width;
    const w = Math.ceil(measureCanvas.measureText(word).width);
    const h = Math.ceil(line.size * 1.3);
    const sprite = createCanvas(w + 2 * pad, h + 2 * pad);
    const g = sprite.getContext("2d");
    g.font = font(face, line.size);
    const baseY = pad + line.size * 0.97;
    if (line.outline) {
      g.lineWidth = line.outline * 2;
      g.lineJoin = "round";
      g.strokeStyle = "rgba(0,0,0,0.9)";
      g.strokeText(word, pad, baseY);
    }
    if (line.shadow) {
      g.shadowColor = "rgba(0,0,0,0.55)";
      g.shadowBlur = Math.max(2, line.size * 0.08);
      g.shadowOffsetY = Math.max(1, line.size * 0.04);
    }
    g.fillStyle = rgb(line.color);
    g.fillText(word, pad, baseY);
    const x = left + offset - pad;
    const y = line.baseline - line.size * 0.97 - pad;
    const key = words(word)[0];
    const underline =
      key && emphasis.includes(key)
        ? { x: left + offset, y: line.baseline + line.size * 0.12, w, h: Math.max(3, Math.round(line.size * 0.1)) }
        : null;
    return { sprite, x, y, cx: x + sprite.width / 2, cy: y + sprite.height / 2, underline };
  });
}

defineFrameSource("type", (context) => {
  const { spec, choreo } = context;
  const { layout, width: W } = spec;
  if (!layout.texts.length) return null;
  const emphasis = words(spec.scene.emphasis ?? "");
  const accent = parseHex(spec.brand.accent);
  const lines = layout.texts.map((line, g) => {
    const underlineColor = readableOn(layout.gradient.from, accent, 1.5);
    return {
      line,
      group: g,
      cta: spec.scene.role === "cta" && isCta(line.text, spec.scene.cta),
      sprites: wordSprites(context, line, emphasis),
      underlineColor,
      rect: lineRect(line),
    };
  });
  const block = lines.reduce(
    (b, l) => ({
      x: Math.min(b.x, l.rect.x),
      y: Math.min(b.y, l.rect.y),
      r: Math.max(b.r, l.rect.x + l.rect.w),
      b: Math.max(b.b, l.rect.y + l.rect.h),
    }),
    { x: Infinity, y: Infinity, r: -Infinity, b: -Infinity },
  );
  const pivot = { x: (block.x + block.r) / 2, y: (block.y + block.b) / 2 };
  // The panels, markers and buttons behind lines arrive with their first line; the page-sized ones are there.
  const boxes = layout.boxes.map((box) => {
    const big = box.w * box.h > 0.4 * W * spec.height || box.h < spec.height * 0.012;
    const first = lines.find((l) => overlaps(l.rect, box));
    return { box, start: big || !first ? null : choreo.groupStart(first.group) - 0.06, cta: !!first?.cta };
  });
  const pulse = (t: number) => {
    const since = t - choreo.restSec;
    if (since < 0) return 1;
    const inBeat = since % spec.beat;
    return 1 + 0.045 * Math.exp(-7 * inBeat) * Math.min(1, inBeat * 30);
  };
  const drawBox = (ctx: SKRSContext2D, box: BoxItem, reveal: number) => {
    ctx.fillStyle = rgb(box.color, box.alpha);
    ctx.fillRect(box.x, box.y, Math.round(box.w * reveal), box.h);
  };
  return {
    readNextFrame(t, ctx) {
      const bump = choreo.textBump(t);
      const shift = choreo.frameShift(t);
      ctx.save();
      ctx.translate(pivot.x + shift, pivot.y);
      ctx.scale(bump, bump);
      ctx.translate(-pivot.x, -pivot.y);
      for (const { box, start, cta } of boxes) {
        if (start === null || choreo.hook) drawBox(ctx, box, 1);
        else {
          const r = ease("expo", (t - start) / 0.3);
          if (r <= 0) continue;
          if (cta) {
            const s = pulse(t);
            ctx.save();
            ctx.translate(box.x + box.w / 2, box.y + box.h / 2);
            ctx.scale(s, s);
            ctx.translate(-(box.x + box.w / 2), -(box.y + box.h / 2));
            drawBox(ctx, box, r);
            ctx.restore();
          } else drawBox(ctx, box, r);
        }
      }
      for (const l of lines) {
        const start = choreo.groupStart(l.group);
        const ctaScale = l.cta ? pulse(t) : 1;
        l.sprites.forEach((w, k) => {
          const pose = groupPose(choreo, start + k * choreo.wordDelay, t, l.line.size, W);
          if (pose.a <= 0 || pose.reveal <= 0) return;
          ctx.save();
          ctx.globalAlpha = pose.a;
          if (pose.reveal < 1) {
            ctx.beginPath();
            ctx.rect(w.x - 4, w.y, w.sprite.width + 8, w.sprite.height);
            ctx.clip();
          }
          const s = pose.s * ctaScale;
          const cx = l.cta ? l.rect.x + l.rect.w / 2 : w.cx;
          const cy = l.cta ? l.rect.y + l.rect.h / 2 : w.cy;
          ctx.translate(cx + pose.dx, cy + pose.dy);
          ctx.scale(s, s);
          ctx.drawImage(w.sprite, w.x - cx, w.y - cy);
          ctx.restore();
          if (w.underline) {
            // The key word's marker sweeps in once the word is there.
            const u = ease("expo", (t - (start + k * choreo.wordDelay + (choreo.hook ? 0.15 : choreo.textSec * 0.6))) / 0.35);
            if (u > 0) {
              ctx.fillStyle = rgb(l.underlineColor);
              ctx.fillRect(w.underline.x + pose.dx, w.underline.y + pose.dy, w.underline.w * u, w.underline.h);
            }
          }
        });
      }
      ctx.restore();
    },
  };
});

defineFrameSource("logo", ({ spec, choreo, logo }) => {
  const place = spec.layout.logo;
  if (!place || !logo) return null;
  const k = Math.min(place.w / logo.width, place.h / logo.height);
  const w = logo.width * k;
  const h = logo.height * k;
  return {
    readNextFrame(t, ctx) {
      const s = choreo.hook ? 1 : spring(Math.min(1, (t - 0.1) / 0.6));
      if (s <= 0) return;
      const cx = place.x + place.w / 2;
      const cy = place.y + place.h / 2;
      ctx.save();
      ctx.translate(cx, cy);
      ctx.scale(s, s);
      const p = place.plate;
      ctx.fillStyle = rgb(p.color, p.alpha);
      ctx.fillRect(p.x - cx, p.y - cy, p.w, p.h);
      ctx.drawImage(logo, -w / 2, -h / 2, w, h);
      ctx.restore();
    },
  };
});

defineFrameSource("backdrop", ({ spec, choreo }) => {
  const boxes = spec.layout.backdrop ?? [];
  if (!boxes.length) return null;
  return {
    readNextFrame(t, ctx) {
      const shift = choreo.frameShift(t);
      for (const box of boxes) {
        ctx.fillStyle = rgb(box.color, box.alpha);
        ctx.fillRect(box.x + shift, box.y, box.w, box.h);
      }
    },
  };
});

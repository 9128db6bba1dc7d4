// editly's model: each kind of layer is one frame source, set up once per scene (where it draws its expensive
// parts, shadows, blurs, the product cut-out, text, as sprites) and then asked for each frame in turn.
import type { Canvas, Image, SKRSContext2D } from "@napi-rs/canvas";
import type { Choreography } from "./choreography.ts";
import type { MotionSpec } from "./spec.ts";

export interface SourceContext {
  spec: MotionSpec;
  choreo: Choreography;
  picture: Image | null;
  logo: Image | null;
  createCanvas: (w: number, h: number) => Canvas;
  /** The canvas font name of a face (registered once per process). */
  font: (face: "sans" | "serif" | "condensed", size: number) => string;
}

export interface FrameSource {
  /** Draws this layer as it is `t` seconds into the scene. */
  readNextFrame(t: number, ctx: SKRSContext2D): void;
}

export type FrameSourceSetup = (context: SourceContext) => FrameSource | null;

const sources = new Map<string, FrameSourceSetup>();

/** Registers a kind of layer; the scene player sets each registered kind up in the order given to {@link layerStack}. */
export function defineFrameSource(type: string, setup: FrameSourceSetup): void {
  sources.set(type, setup);
}

/** The frame sources of one scene, bottom to top (a kind with nothing to draw in this scene is left out). */
export function layerStack(types: readonly string[], context: SourceContext): FrameSource[] {
  return types.flatMap((type) => {
    const setup = sources.get(type);
    if (!setup) throw new Error(`no frame source of type ${type}`);
    const source = setup(context);
    return source ? [source] : [];
  });
}

export const rgb = (c: readonly number[], alpha = 1) => `rgba(${c[0]},${c[1]},${c[2]},${alpha})`;

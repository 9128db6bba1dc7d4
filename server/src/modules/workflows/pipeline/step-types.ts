// The step types: what a pipeline step is and is given (StepContext, PipelineStep), and what the steps
// hand each other through the job's stored outputs (the page read, the art direction, a rendered format).
// Their own module (types, and the media URL every step output is served at), so a step can name them
// without importing the pipeline that runs it.
import type { Hook } from "./hooks.ts";
import type { AspectRatio, BriefReading, CreativeScore, KnowledgeSource, Optimization, Shot, WorkflowRequest } from "@adgen/schema";
import type { Job } from "@adgen/prisma";
import type { Services } from "../../../request-context.ts";
import type { PageOutline } from "../../net/page-outline.ts";
import type { PageSignals } from "../../net/page-signals.ts";
import type { Persona, Storyboard } from "../../render/types.ts";
import type { CaptionCue, NarratedLine, NarrationStyle } from "../../voice/index.ts";
import type { Generation } from "../launch/check-options.ts";

export interface PageFacts {
  url: string;
  title: string | null;
  description: string | null;
  images: string[];
  colors: string[];
  warnings: string[];
  /** Local audit: what a visitor from an ad finds on the page (absent when it could not be fetched). */
  signals?: PageSignals;
  /** Inspiration (clone): the reference's headings, text and buttons in reading order (absent when it could not be fetched). */
  outline?: PageOutline;
  /** The page's own call to action, its first button that reads as one ("Open an account"). */
  cta?: string;
}

export interface StepContext {
  services: Services;
  job: Job;
  request: WorkflowRequest;
  /** Outputs of the steps finished so far, by name. */
  outputs: Map<string, unknown>;
  signal: AbortSignal;
  /** Reports progress within this step (0..1). */
  progress(fraction: number): void;
}

export interface PipelineStep {
  name: string;
  /** Share of the whole job's progress bar. */
  weight: number;
  run(ctx: StepContext): Promise<unknown>;
}

export interface RenderedFormat {
  format: AspectRatio;
  kind: "video" | "image";
  key: string;
  thumbnailKey: string;
  width: number;
  height: number;
  durationSec: number;
  bytes: number;
  /**
   * Premium: more of this format. Image ads: a further still (the closing scene, `sceneId`). Videos: an
   * alternate cut (`kind` "video", `variant` "B") opening on another hook, with its thumbnail and length.
   */
  variants?: {
    key: string;
    sceneId?: string;
    kind?: "video" | "image";
    thumbnailKey?: string;
    durationSec?: number;
    variant?: string;
    /** The line the alternate cut opens on. */
    hook?: string;
  }[];
  /** Premium video: why no alternate cut was made (the result's warnings say it). */
  variantWarning?: string;
}

/** What became of one beat of the framework: written, or left out and why (`result.storyboard.beats`). */
export interface BeatNote {
  role: string;
  written: boolean;
  reason?: string;
}

export interface ArtDirection {
  storyboard: Storyboard & { beats?: BeatNote[] };
  framework: string;
  formats: AspectRatio[];
  /** The storyboard's creative score, before anything is rendered. */
  creativeScore: CreativeScore;
  /** Opening lines of each kind (hooks.ts), best first: a factory's variants open on different kinds. */
  hooks?: Hook[];
}

export interface TypedDirection extends ArtDirection {
  /** cinematic: one shot per scene. */
  shotList?: Shot[];
  /** ad-optimizer: the source project and what changed. */
  optimization?: Optimization;
  /** clone: why the ad does not follow its reference (absent when it does). */
  structureWarning?: string;
  /** Why a configured language model's copy was not used (absent when it was, or with no model). */
  writerWarning?: string;
  /** How each sentence of the brief was read (absent in outputs stored by older versions). */
  briefReading?: BriefReading;
}

export interface ArtDirectionOutput extends ArtDirection, Omit<TypedDirection, keyof ArtDirection> {
  previews: { sceneId: string; key: string }[];
  /** What makes this ad: the models used and notes for the user (absent in outputs stored by older versions). */
  generation?: Generation;
  /** The knowledge-base passages the copy drew on (absent in outputs stored by older versions). */
  sources?: KnowledgeSource[];
  /** The user's presenter (brand media library), when they have one. */
  presenter?: { key: string; kind: "image" | "video"; name?: string } | null;
}

/** The voice step's output (voice-step.ts): the narration, retimed storyboard and stored voice-over. */
export interface VoiceOutput {
  style: NarrationStyle;
  voice: string;
  /** The storyboard with each scene timed to its line: what the renders render. */
  storyboard: Storyboard;
  lines: NarratedLine[];
  cues: CaptionCue[];
  durationSec: number;
  /** The voice-over (absent when the ad is too short for any speech). */
  wavKey: string | null;
  captionsKey: string;
  persona: Persona;
}

export const mediaUrl = (services: Services, key: string) => `${services.config.publicUrl}/api/media/${key.replace(/^jobs\//, "")}`;

/** The platform each format is made for, as a result's assets name it. */
export const PLATFORM_OF_FORMAT: Record<AspectRatio, string> = {
  "16:9": "youtube",
  "9:16": "tiktok",
  "1:1": "instagram",
  "4:5": "instagram",
};

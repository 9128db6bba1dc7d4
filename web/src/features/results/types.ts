// The job and result shapes the result views read (the server's `workflow.job` answer).
import type { RouterOutputs } from "../../trpc.ts";

export type Job = RouterOutputs["workflow"]["job"];
export type Result = NonNullable<Job["result"]>;
export type Asset = Result["assets"][number];

/** Rendered ads (videos and stills), not the report, captions or voice-over. */
export function isRendered(asset: Asset): boolean {
  return asset.type === "video" || asset.type === "image";
}

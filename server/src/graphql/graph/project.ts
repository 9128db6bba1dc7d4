// A project (a job: one ad made by a workflow) as partners read it.
import type { Builder } from "../builder.ts";
import { ownerScope } from "./access.ts";

interface Asset {
  url: string;
  type: string;
  format: string;
  duration: number;
}

export function addProject(builder: Builder) {
  const asset = builder.objectRef<Asset>("ProjectAsset").implement({
    description: "A file a project made: a video, image, voice-over, captions or report.",
    fields: (t) => ({
      url: t.exposeString("url", { description: "Where to fetch it (relative to the service)." }),
      type: t.exposeString("type", { description: "video, image, audio, document or captions." }),
      format: t.exposeString("format", { description: "Its aspect ratio (9:16, 1:1, 16:9), or a document's file format." }),
      duration: t.exposeFloat("duration", { description: "Its length in seconds (0 for a still or document)." }),
    }),
  });
  return builder.prismaNode("Job", {
    variant: "AccountProject",
    description: "A project: one ad made by a workflow, with its status, cost in credits and timing.",
    id: { field: "id", description: "The project's global id (for `node(id:)`)." },
    findUnique: (id, ctx) => ({ id, ...ownerScope(ctx) }),
    fields: (t) => ({
      projectId: t.exposeString("id", { description: "The project's id, as REST and tRPC name it (`/api/projects/{id}`)." }),
      type: t.exposeString("type", { description: "The workflow that made it (SPEC's workflow types)." }),
      name: t.exposeString("name", { description: "The name its owner gave it." }),
      quality: t.exposeString("quality", { description: "The quality tier it was made at." }),
      status: t.string({ description: "queued, processing, awaiting_review, completed or failed.", resolve: (job) => job.status }),
      creditsUsed: t.exposeInt("creditsUsed", { description: "Credits it cost." }),
      progress: t.exposeInt("progress", { description: "Progress in percent." }),
      createdAt: t.string({ description: "When it was launched (ISO 8601).", resolve: (job) => job.createdAt.toISOString() }),
      assets: t.field({
        type: [asset],
        description: "The files it made, once it has (empty before).",
        resolve: (job) => {
          const assets = (job.result as { assets?: unknown } | null)?.assets;
          return Array.isArray(assets) ? (assets as Asset[]) : [];
        },
      }),
      finishedAt: t.string({
        nullable: true,
        description: "When it ended, if it has.",
        resolve: (job) => job.finishedAt?.toISOString() ?? null,
      }),
    }),
  });
}

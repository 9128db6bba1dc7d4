// A project (a job: one ad made by a workflow) as partners read it.
import type { Builder } from "../builder.ts";
import { ownerScope } from "./access.ts";

export function addProject(builder: Builder) {
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
      status: t.string({ description: "queued, running, awaiting_review, completed, failed or cancelled.", resolve: (job) => job.status }),
      creditsUsed: t.exposeInt("creditsUsed", { description: "Credits it cost." }),
      progress: t.exposeInt("progress", { description: "Progress in percent." }),
      createdAt: t.string({ description: "When it was launched (ISO 8601).", resolve: (job) => job.createdAt.toISOString() }),
      finishedAt: t.string({
        nullable: true,
        description: "When it ended, if it has.",
        resolve: (job) => job.finishedAt?.toISOString() ?? null,
      }),
    }),
  });
}

// projects.*: the account's projects (one per launch, id = job id): list and search, rename, delete, and
// their CSV / ZIP download.
import { Project, ProjectDeleted, ProjectIdInput, ProjectsQuery, RenameProjectInput } from "@adgen/schema";
import { z } from "zod";
import { exportProjectsCsv, exportProjectsZip } from "../modules/projects/exports.ts";
import { deleteProject, renameProject } from "../modules/projects/manage-projects.ts";
import { listProjects } from "../modules/projects/projects.ts";
import { defineOperation, type FileResult } from "./operation.ts";
import { signedIn } from "./signed-in.ts";
import { auditSourceOf } from "../request-context.ts";

const BYTES = { none: "a file download: bytes travel over REST only" };

export const projectsOperations = {
  list: defineOperation({
    summary: "Your projects (one per launch, id = job id), newest first; `q` keeps those whose name or concept contains it",
    access: "user",
    kind: "query",
    input: ProjectsQuery,
    output: z.array(Project),
    rest: { method: "GET", path: "/user/projects", tag: "Projects" },
    handler: (ctx, input) => listProjects(ctx.services, signedIn(ctx), { q: input.q }),
  }),
  rename: defineOperation({
    summary: "Rename one of your projects",
    access: "user",
    kind: "mutation",
    input: RenameProjectInput,
    output: Project,
    rest: { method: "PATCH", path: "/user/projects/{id}", tag: "Projects", errors: { 404: "Project not found" } },
    handler: (ctx, input) => renameProject(ctx.services, signedIn(ctx), auditSourceOf(ctx), input),
  }),
  delete: defineOperation({
    summary: "Delete one of your finished projects and its media files (a running one must be cancelled first: 409)",
    access: "user",
    kind: "mutation",
    input: ProjectIdInput,
    output: ProjectDeleted,
    rest: {
      method: "DELETE",
      path: "/user/projects/{id}",
      tag: "Projects",
      from: "query",
      errors: { 404: "Project not found", 409: "The project is still being made" },
    },
    handler: (ctx, input) => deleteProject(ctx.services, signedIn(ctx), auditSourceOf(ctx), input.id),
  }),
  export: defineOperation({
    summary: "Download your projects: CSV, or `?format=zip` (or Accept: application/zip) for a ZIP of videos and metadata",
    access: "user",
    kind: "download",
    input: z.object({ format: z.enum(["csv", "zip"], { error: "format must be csv or zip" }).optional() }),
    output: null,
    rest: { method: "GET", path: "/user/projects/export", tag: "Projects", produces: ["text/csv", "application/zip"] },
    trpc: BYTES,
    graphql: BYTES,
    handler: async (ctx, input, call): Promise<FileResult> => {
      const zip = input.format === "zip" || (!input.format && /application\/zip/.test(call.headers.get("accept") ?? ""));
      if (zip) {
        const { filename, stream } = await exportProjectsZip(ctx.services, signedIn(ctx));
        return { kind: "file", filename, body: stream, contentType: "application/zip" };
      }
      const { filename, body } = await exportProjectsCsv(ctx.services, signedIn(ctx));
      return { kind: "file", filename, body, contentType: "text/csv; charset=utf-8" };
    },
  }),
};

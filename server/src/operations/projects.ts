// projects.*: the account's projects (one per launch, id = job id) and their CSV / ZIP download.
import { Project } from "@adgen/schema";
import { z } from "zod";
import { exportProjectsCsv, exportProjectsZip } from "../modules/projects/exports.ts";
import { listProjects } from "../modules/projects/projects.ts";
import { defineOperation, NoInput, type FileResult } from "./operation.ts";

const BYTES = { none: "a file download: bytes travel over REST only" };

export const projectsOperations = {
  list: defineOperation({
    summary: "Your projects (one per launch, id = job id), newest first",
    access: "user",
    kind: "query",
    input: NoInput,
    output: z.array(Project),
    rest: { method: "GET", path: "/user/projects", tag: "Projects" },
    handler: (ctx) => listProjects(ctx),
  }),
  export: defineOperation({
    summary: "Download your projects: CSV, or `?format=zip` (or Accept: application/zip) for a ZIP of videos and metadata",
    access: "user",
    kind: "download",
    input: z.object({ format: z.enum(["csv", "zip"], { error: "format must be csv or zip" }).optional() }),
    output: null,
    rest: { method: "GET", path: "/user/projects/export", tag: "Projects" },
    trpc: BYTES,
    graphql: BYTES,
    handler: async (ctx, input, call): Promise<FileResult> => {
      const zip = input.format === "zip" || (!input.format && /application\/zip/.test(call.headers.get("accept") ?? ""));
      if (zip) {
        const { filename, stream } = await exportProjectsZip(ctx);
        return { kind: "file", filename, body: stream, contentType: "application/zip" };
      }
      const { filename, body } = await exportProjectsCsv(ctx);
      return { kind: "file", filename, body, contentType: "text/csv; charset=utf-8" };
    },
  }),
};

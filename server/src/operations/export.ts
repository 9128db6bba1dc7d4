// export.*: downloading one video or the account's data, and background ZIP exports.
import { ExportStatus } from "@adgen/schema";
import { z } from "zod";
import { STORED_MEDIA_TYPES } from "../media/content-type.ts";
import { downloadExport, exportAccountData, exportSource, getExport, startExport } from "../modules/projects/exports.ts";
import { defineOperation, NoInput, type FileResult } from "./operation.ts";
import { signedIn } from "./signed-in.ts";

const BYTES = { none: "a file download: bytes travel over REST only" };
const ExportId = z.object({ id: z.string({ error: "id is required" }).min(1, { error: "id is required" }) });

export const exportOperations = {
  download: defineOperation({
    summary:
      "With `source`: an https video URL on an allowed host, as MP4; or one of your own media URLs (/api/media/<jobId>/<file>), as that file's own type (a video as MP4, a static ad as PNG, a thumbnail as JPEG, captions as WebVTT, …). Without: your account data as JSON.",
    access: "user",
    kind: "download",
    input: z.object({ source: z.string().optional() }),
    output: null,
    rest: {
      method: "GET",
      path: "/export",
      tag: "Projects",
      // An own media URL answers the stored file's type (a static ad's PNG, say), so each is declared.
      produces: [...new Set(["video/mp4", ...STORED_MEDIA_TYPES, "application/json"])],
      errors: { 404: "Video not found", 409: "Job not completed" },
    },
    trpc: BYTES,
    graphql: BYTES,
    handler: async (ctx, input): Promise<FileResult> => {
      if (input.source) {
        const video = await exportSource(ctx.services, signedIn(ctx), input.source);
        return { kind: "file", filename: video.filename, body: video.stream, contentType: video.contentType, length: video.length };
      }
      const data = await exportAccountData(ctx.services, signedIn(ctx));
      return {
        kind: "file",
        filename: `account-export-${new Date().toISOString().slice(0, 10)}.json`,
        body: JSON.stringify({ success: true, data }, null, 2),
        contentType: "application/json",
      };
    },
  }),
  start: defineOperation({
    summary: "Start a background export (a ZIP of all your projects); follow it with GET /export/{id}",
    access: "user",
    kind: "mutation",
    input: NoInput,
    output: ExportStatus,
    rest: { method: "POST", path: "/export", tag: "Projects" },
    handler: (ctx) => startExport(ctx.services, signedIn(ctx)),
  }),
  status: defineOperation({
    summary: "State of a background export",
    access: "user",
    kind: "query",
    input: ExportId,
    output: ExportStatus,
    rest: { method: "GET", path: "/export/{id}", tag: "Projects", errors: { 404: "Export not found" } },
    handler: (ctx, input) => getExport(ctx.services, signedIn(ctx), input.id),
  }),
  file: defineOperation({
    summary: "The ZIP of a completed background export",
    access: "user",
    kind: "download",
    input: ExportId,
    output: null,
    rest: {
      method: "GET",
      path: "/export/{id}/download",
      tag: "Projects",
      produces: ["application/zip"],
      errors: { 404: "Export not found", 409: "Export not finished" },
    },
    trpc: BYTES,
    graphql: BYTES,
    handler: async (ctx, input): Promise<FileResult> => {
      const file = await downloadExport(ctx.services, signedIn(ctx), input.id);
      return { kind: "file", filename: file.filename, body: file.stream, contentType: "application/zip", length: file.length };
    },
  }),
};

// media.*: rendered files, served with byte ranges so players can seek.
import { z } from "zod";
import { openJobMedia } from "../modules/job-media/serve-media.ts";
import { defineOperation, type FileResult } from "./operation.ts";
import { signedIn } from "./signed-in.ts";

export const mediaOperations = {
  file: defineOperation({
    summary: "A rendered file of one of your jobs, with byte ranges",
    access: "user",
    kind: "download",
    input: z.object({ jobId: z.string().min(1), file: z.string().min(1) }),
    output: null,
    rest: {
      method: "GET",
      path: "/media/{jobId}/{file}",
      tag: "Projects",
      produces: ["video/mp4", "image/jpeg", "image/png", "image/webp", "audio/wav", "text/vtt", "application/zip", "application/pdf"],
      ranged: true,
      errors: { 404: "File not found", 409: "Job not completed (only its review stills are served before)" },
    },
    trpc: { none: "byte-range media: players fetch it over REST" },
    graphql: { none: "byte-range media: players fetch it over REST" },
    handler: async (ctx, input): Promise<FileResult> => {
      const file = await openJobMedia(ctx.services, signedIn(ctx), input.jobId, input.file);
      return {
        kind: "file",
        filename: input.file,
        contentType: file.contentType,
        body: "",
        disposition: "inline",
        ranged: { bytes: file.bytes, modifiedAt: file.modifiedAt, read: (range) => ctx.services.media.read(file.key, range) },
      };
    },
  }),
};

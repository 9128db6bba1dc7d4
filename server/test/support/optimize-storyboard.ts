// The ad optimizer run on a storyboard alone, as if it were a finished cinematic project of the user's
// (no ratings or review feedback), for tests that judge what the optimizer makes of a given ad.
import type { Job } from "@adgen/prisma";
import { WorkflowRequest } from "@adgen/schema";
import type { Storyboard } from "../../src/modules/render/types.ts";
import { optimizeAd } from "../../src/modules/workflows/pipeline/optimize.ts";

const request = WorkflowRequest.parse({
  type: "ad-optimizer",
  concept: "Glacier keeps water ice cold for 24 hours",
  formats: ["9:16", "1:1"],
});

const sourceJob = (storyboard: Storyboard) =>
  ({
    id: "source-job",
    type: "cinematic",
    input: { concept: "Glacier bottle" },
    rating: null,
    ratingFeedback: null,
    reviewFeedback: null,
    storyboard,
  }) as unknown as Job;

export const optimiseStoryboard = (storyboard: Storyboard) =>
  optimizeAd({ source: { job: sourceJob(storyboard), storyboard }, request, brand: null, maxAdSeconds: 15 });

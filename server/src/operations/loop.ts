// loop.*: what to do next for a brand (SEED, DOUBLE_DOWN, ITERATE, KILL, CHALLENGER) and doing it. The
// rules are in modules/loop; launches go through workflow.launch's own path (charged, refunded, 402).
import { LoopExecuteInput, LoopExecution, LoopQuery, LoopRecommendation } from "@adgen/schema";
import { executeLoop, recommendLoop } from "../modules/loop/loop.ts";
import { defineOperation } from "./operation.ts";
import { signedIn } from "./signed-in.ts";

const tag = "Performance";

export const loopOperations = {
  recommend: defineOperation({
    summary: "The loop's recommendation for one of your brands, with its reasoning, a confidence and the creatives and figures used",
    access: "user",
    kind: "query",
    input: LoopQuery,
    output: LoopRecommendation,
    rest: { method: "GET", path: "/loop", tag, errors: { 404: "Brand not found" } },
    handler: (ctx, input) => recommendLoop(ctx.services, signedIn(ctx), input),
  }),
  execute: defineOperation({
    summary: "Carry out a loop action for one of your brands: launches are charged like any launch; KILL stops a creative",
    access: "user",
    kind: "mutation",
    input: LoopExecuteInput,
    output: LoopExecution,
    rest: {
      method: "POST",
      path: "/loop",
      tag,
      errors: { 402: "Not enough credits for the launch", 404: "Brand or creative not found", 409: "Creative already stopped" },
    },
    handler: (ctx, input) => executeLoop(ctx.services, signedIn(ctx), input),
  }),
};

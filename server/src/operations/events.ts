// events.*: the account's job events as they happen (an admin's: every account's).
import { JobEventView } from "@adgen/schema";
import { watchAccountJobEvents } from "../modules/workflows/jobs/job-stream.ts";
import { defineOperation, NoInput } from "./operation.ts";
import { signedIn } from "./signed-in.ts";

export const eventsOperations = {
  stream: defineOperation({
    summary: "The account's job events (an admin receives all); on SSE the event name is the kind",
    access: "user",
    kind: "subscription",
    input: NoInput,
    output: JobEventView,
    rest: { method: "GET", path: "/events/stream", tag: "Workflow" },
    handler: async function* (ctx, _input, call) {
      for await (const event of watchAccountJobEvents(ctx.services, signedIn(ctx), call.signal))
        yield { id: event.id, event: event.type, data: event };
    },
  }),
};

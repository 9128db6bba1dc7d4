// What a job's event carries beside its status, typed for GraphQL: REST, SSE and tRPC answer it as it is
// stored (SPEC: `result` is the event's own object), and its zod schema stays open, so the check of every
// streamed event against the operation's output schema sees what it always saw. GraphQL reads each kind's
// known shape from the stored object into one object type with a nullable field per shape.
import type { ObjectRef } from "@pothos/core";
import { WorkflowResult } from "@adgen/schema";
import type { Builder } from "../builder.ts";
import { toJsonSchema } from "./json-schema.ts";
import type { CatalogueTypes } from "./types.ts";

interface EventParent {
  type: string;
  result?: unknown;
}

/** The event and its stored result, as the fields of `JobEventResult` read them. */
interface EventResult {
  type: string;
  data: Record<string, unknown>;
}

const text = (value: unknown) => (typeof value === "string" ? value : null);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A step event's own markers (the pipeline's finished step, a review's decision), not a worker's update. */
const isMarker = (data: Record<string, unknown>) => typeof data.completed === "string" || typeof data.review === "string";

/** Types `JobEvent.result` on GraphQL as `JobEventResult`. Call before the catalogue's types are planned. */
export function typeJobEventResult(builder: Builder, types: CatalogueTypes): void {
  types.override("JobEvent", "result", () => {
    const workflow: ObjectRef<any, Record<string, unknown>> = types.output(toJsonSchema(WorkflowResult, "output"), "WorkflowResult").use
      .ref;
    const update: ObjectRef<any, Record<string, unknown>> = types.partialOf(
      workflow,
      "WorkflowResultUpdate",
      "Part of a job's result, as an external worker reported it with a step: the fields it set (others are null).",
    );
    const ref = builder.objectRef<EventResult>("JobEventResult").implement({
      description:
        "What an event carries beside its status, by the event's type: workflow.completed and workflow.state the job's result (`workflow`), " +
        "workflow.failed its refund (`refunded`), workflow.step the finished step (`completedStep`), the review's " +
        "decision (`review`) or a worker's update (`update`), workflow.suspended the pending review (`review`), " +
        "video.ready the rendered format (`format`, `url`). Fields another type of event does not carry are null.",
      fields: (t) => ({
        workflow: t.field({
          type: workflow,
          nullable: true,
          description:
            "workflow.completed: the job's result (assets, final video, storyboard, …); workflow.state (a stream's first event): the job's result so far, if it has one.",
          resolve: ({ type, data }) => (type === "workflow.completed" || type === "workflow.state" ? data : null),
        }),
        refunded: t.int({
          nullable: true,
          description: "workflow.failed: the credits refunded to the account.",
          resolve: ({ data }) => (Number.isInteger(data.refunded) ? (data.refunded as number) : null),
        }),
        completedStep: t.string({
          nullable: true,
          description: "workflow.step: the pipeline step that just finished (REST, SSE and tRPC: `result.completed`).",
          resolve: ({ data }) => text(data.completed),
        }),
        review: t.string({
          nullable: true,
          description:
            "workflow.suspended: `pending` (the storyboard waits for review); workflow.step: `approved` (the review let the job go on).",
          resolve: ({ data }) => text(data.review),
        }),
        update: t.field({
          type: update,
          nullable: true,
          description: "workflow.step from an external worker: the part of the job's result it reported with the step.",
          resolve: ({ type, data }) => (type === "workflow.step" && !isMarker(data) ? data : null),
        }),
        format: t.string({
          nullable: true,
          description: "video.ready: the format rendered (9:16, 1:1, …).",
          resolve: ({ type, data }) => (type === "video.ready" ? text(data.format) : null),
        }),
        url: t.string({
          nullable: true,
          description: "video.ready: where the rendered video is served.",
          resolve: ({ type, data }) => (type === "video.ready" ? text(data.url) : null),
        }),
      }),
    });
    return {
      use: { ref },
      nullable: true,
      description:
        "What the event carries beside its status, typed by the event's type (null when it carries nothing). REST, SSE and tRPC answer the stored object.",
      resolve: (parent: EventParent): EventResult | null => (isObject(parent.result) ? { type: parent.type, data: parent.result } : null),
    };
  });
}

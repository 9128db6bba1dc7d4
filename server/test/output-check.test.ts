// The output check every operation's answer passes under tests: outside the schema, or carrying a field the
// schema does not declare (zod's parse would strip it, and the handler's own value is what is sent), fails.
import { ReviewScene } from "@adgen/schema";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { checkOutputShape } from "../src/operations/output-check.ts";

const Scene = z.object({ id: z.string(), headline: z.string(), notes: z.record(z.string(), z.string()).optional() });
const Answer = z.object({ jobId: z.string(), scenes: z.array(Scene) });

describe("checkOutputShape", () => {
  it("passes an answer that is exactly what the schema says (records keep their own keys)", () => {
    expect(() =>
      checkOutputShape("t", Answer, { jobId: "j", scenes: [{ id: "a", headline: "Hi", notes: { anything: "goes" } }] }),
    ).not.toThrow();
  });

  it("fails on a field the schema does not declare, naming where it is", () => {
    const leaky = {
      jobId: "j",
      scenes: [
        { id: "a", headline: "Hi" },
        { id: "b", headline: "Yo", imageKey: "media/internal.png" },
      ],
    };
    expect(() => checkOutputShape("workflow.hitl", Answer, leaky)).toThrow(
      "workflow.hitl answered fields its output schema does not declare: scenes[1].imageKey",
    );
  });

  it("still fails on a value outside the schema", () => {
    expect(() => checkOutputShape("t", Answer, { jobId: 1, scenes: [] })).toThrow(/answered outside its output schema/);
  });

  it("a review scene documents how it moves: motion, textMotion and tone are declared", () => {
    const scene = { id: "s1", durationSec: 2, headline: "H", background: "#000", accent: "#fff", transition: "fade", preview: null };
    expect(() => checkOutputShape("t", ReviewScene, { ...scene, motion: "push-in", textMotion: "rise", tone: "problem" })).not.toThrow();
    expect(() => checkOutputShape("t", ReviewScene, { ...scene, imageKey: "media/x.png" })).toThrow(/imageKey/);
  });
});

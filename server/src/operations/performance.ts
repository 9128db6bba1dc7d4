// performance.*: a creative's figures: ingest a day (POST), correct it (PATCH), remove it (DELETE), record single events, and
// read totals, daily series and decay per creative. The rules are in modules/performance.
import {
  PerformanceCorrectInput,
  PerformanceEventInput,
  PerformanceEventReceipt,
  PerformanceIngested,
  PerformanceIngestInput,
  PerformanceQuery,
  PerformanceRemoved,
  PerformanceRemoveInput,
  PerformanceReport,
} from "@adgen/schema";
import { correctPerformance, ingestPerformance, recordPerformanceEvent } from "../modules/performance/ingest.ts";
import { removePerformanceDay } from "../modules/performance/remove-day.ts";
import { performanceReport } from "../modules/performance/report.ts";
import { defineOperation } from "./operation.ts";
import { signedIn } from "./signed-in.ts";

const tag = "Performance";

export const performanceOperations = {
  report: defineOperation({
    summary: "Your creatives' figures: totals, the daily series (CTR, CPC, CPA, ROAS) and decay, by brand, creative and date range",
    access: "user",
    kind: "query",
    input: PerformanceQuery,
    output: PerformanceReport,
    rest: { method: "GET", path: "/workflow/performance", tag, errors: { 404: "Brand or creative not found" } },
    handler: (ctx, input) => performanceReport(ctx.services, signedIn(ctx), input),
  }),
  ingest: defineOperation({
    summary:
      "Send one day's figures of a creative (one of your projects or your own ad id), or a period's totals (from, to); answers the computed CTR, CPC, CPA and ROAS",
    access: "user",
    kind: "mutation",
    input: PerformanceIngestInput,
    output: PerformanceIngested,
    rest: {
      method: "POST",
      path: "/workflow/performance",
      tag,
      errors: { 404: "Brand not found", 409: "That day was already ingested with other figures (correct it with PATCH)" },
    },
    handler: (ctx, input) => ingestPerformance(ctx.services, signedIn(ctx), input),
  }),
  correct: defineOperation({
    summary: "Correct the figures of a day (by creative and date) or a period (from, to) already ingested",
    access: "user",
    kind: "mutation",
    input: PerformanceCorrectInput,
    output: PerformanceIngested,
    rest: { method: "PATCH", path: "/workflow/performance", tag, errors: { 404: "No figures for that creative and day" } },
    handler: (ctx, input) => correctPerformance(ctx.services, signedIn(ctx), input),
  }),
  remove: defineOperation({
    summary: "Remove the figures entered for one creative and day (a row entered by mistake); recorded events stay",
    access: "user",
    kind: "mutation",
    input: PerformanceRemoveInput,
    output: PerformanceRemoved,
    rest: {
      method: "DELETE",
      path: "/workflow/performance",
      tag,
      from: "query",
      errors: { 404: "No figures entered for that creative and day" },
    },
    handler: (ctx, input) => removePerformanceDay(ctx.services, signedIn(ctx), input),
  }),
  record: defineOperation({
    summary: "Record one event from a pixel or an integration (impression, click, or conversion with its value); idempotent by eventId",
    access: "user",
    kind: "mutation",
    input: PerformanceEventInput,
    output: PerformanceEventReceipt,
    rest: { method: "POST", path: "/performance", tag, errors: { 404: "Brand not found" } },
    handler: (ctx, input) => recordPerformanceEvent(ctx.services, signedIn(ctx), input),
  }),
};

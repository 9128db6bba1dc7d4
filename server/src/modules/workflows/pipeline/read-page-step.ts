import { STEP } from "@adgen/schema";
import { readPageMeta } from "../../net/page-meta.ts";
import type { PageFacts, PipelineStep } from "./step-types.ts";
import { wantsPageOutline } from "./types/clone.ts";
import { assertPageRead } from "./page-read.ts";
import { pageUrlFor, wantsPageSignals } from "./types/staticad.ts";

export const readPage: PipelineStep = {
  name: STEP.readPage,
  weight: 10,
  async run({ services, job, request }) {
    const url = await pageUrlFor(services, job, request);
    const meta = await readPageMeta(url, {
      resolver: services.resolver,
      timeoutMs: 10_000,
      signals: wantsPageSignals(request),
      outline: wantsPageOutline(request),
    });
    const facts: PageFacts = {
      url,
      title: meta.title,
      description: meta.description,
      images: meta.images,
      colors: meta.colors,
      warnings: meta.warnings,
      ...(meta.signals ? { signals: meta.signals } : {}),
      ...(meta.outline ? { outline: meta.outline } : {}),
    };
    assertPageRead(facts, request);
    return facts;
  },
};

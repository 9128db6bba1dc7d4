// The first step of a job with a url: read the product page (title, pictures, colours, and what the type
// asks for), and fail before anything is charged for a page that was never read.
import { readPageMeta } from "../../net/page-meta.ts";
import { wantsPageOutline } from "./types/clone.ts";
import { assertPageRead } from "./page-read.ts";
import { wantsPageSignals } from "./types/local-audit.ts";
import { STEP, type WorkflowRequest } from "@adgen/schema";
import type { Job } from "@adgen/prisma";
import type { Services } from "../../../request-context.ts";
import { loadBrandForJob } from "../../brand/brand-profile.ts";
import { PermanentJobError } from "./job-errors.ts";
import { pageCallToAction } from "./viewer-cta.ts";
import type { PageFacts, PipelineStep } from "./step-types.ts";

export const readPage: PipelineStep = {
  name: STEP.readPage,
  weight: 10,
  async run({ services, job, request }) {
    const url = await pageUrlFor(services, job, request);
    const meta = await readPageMeta(url, {
      resolver: services.resolver,
      timeoutMs: 10_000,
      signals: wantsPageSignals(request),
      // Every type reads the outline for the page's own call to action; a clone also keeps the outline.
      outline: true,
    });
    const ownCta = pageCallToAction(meta.outline);
    const facts: PageFacts = {
      url,
      title: meta.title,
      description: meta.description,
      images: meta.images,
      colors: meta.colors,
      warnings: meta.warnings,
      ...(meta.signals ? { signals: meta.signals } : {}),
      ...(meta.outline && wantsPageOutline(request) ? { outline: meta.outline } : {}),
      ...(ownCta ? { cta: ownCta } : {}),
    };
    assertPageRead(facts, request);
    return facts;
  },
};

/** The page a job reads: the request's url; a local audit without one audits the brand's website. */
async function pageUrlFor(services: Services, job: Job, request: WorkflowRequest): Promise<string> {
  if (request.url) return request.url;
  if (request.type === "local-audit" || request.type === "brand") {
    const brand = await loadBrandForJob(services.prisma, job.userId, request.brand);
    if (brand?.websiteUrl) return brand.websiteUrl;
    const what = request.type === "brand" ? "A brand film needs the brand's site" : "A local audit needs the business's page";
    throw new PermanentJobError(`${what}: launch it with url (or save a websiteUrl in the brand profile)`);
  }
  throw new PermanentJobError("This job has no page to read");
}

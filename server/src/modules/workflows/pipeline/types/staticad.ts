// Steps and result parts of particular workflow types (schema/src/pipeline.ts names and orders them):
//   staticad:    each format's render step draws several still variants (headline × layout × colours), no video;
//   local-audit: the page is read with its ad-readiness signals, scored (`audit`), written up as a PDF
//                (`audit_report`), and a short ad is rendered as usual;
//   brand:       the brand's site is read for its kit (`brand_kit`: brand-kit.ts), saved to the brand profile.
import { rm } from "node:fs/promises";
import { join } from "node:path";
import {
  type AspectRatio,
  type AuditReport,
  type BrandKit,
  type FactoryVariant,
  FORMATS,
  type OutputAsset,
  renderStepName,
  STEP,
  type WorkflowRequest,
} from "@adgen/schema";
import type { Job } from "@adgen/prisma";
import type { Services } from "../../../../request-context.ts";
import { jobMediaKey } from "../../../../media/storage.ts";
import { loadBrandForJob } from "../../../brand/brand-profile.ts";
import { renderStaticAd, staticVariants } from "../../../render/static-ad.ts";
import { writeAuditPdf } from "../audit-pdf.ts";
import { type BrandKitOutput, brandKitStep } from "./brand.ts";
import { factoryResult } from "./factory.ts";
import { auditPage } from "../local-audit.ts";
import { withLocalImages } from "../imagery.ts";
import { PermanentJobError } from "../job-errors.ts";
import type { ArtDirectionOutput, PageFacts, PipelineStep, RenderedFormat } from "../step-types.ts";

/** Still variants per format of a static ad. */
export const STATIC_VARIANTS = 3;

/** One drawn static-ad variant, as stored in its render step's output. */
export interface StaticDesign {
  id: string;
  layout: string;
  headline: string;
  key: string;
  bytes: number;
}

/** The page a job reads: the request's url; a local audit without one audits the brand's website. */
export async function pageUrlFor(services: Services, job: Job, request: WorkflowRequest): Promise<string> {
  if (request.url) return request.url;
  if (request.type === "local-audit" || request.type === "brand") {
    const brand = await loadBrandForJob(services.prisma, job.userId, request.brand);
    if (brand?.websiteUrl) return brand.websiteUrl;
    const what = request.type === "brand" ? "A brand film needs the brand's site" : "A local audit needs the business's page";
    throw new PermanentJobError(`${what}: launch it with url (or save a websiteUrl in the brand profile)`);
  }
  throw new PermanentJobError("This job has no page to read");
}

/** Whether the page reader should also collect the ad-readiness signals. */
export const wantsPageSignals = (request: WorkflowRequest) => request.type === "local-audit";

/** staticad: the format's render step, drawing STATIC_VARIANTS PNG variants at the format's size. */
export function staticAdStep(format: AspectRatio): PipelineStep {
  return {
    name: renderStepName(format),
    weight: 40,
    async run({ services, job, outputs, progress }) {
      const direction = outputs.get(STEP.artDirection) as ArtDirectionOutput;
      const stem = `ad-${format.replace(":", "x")}`;
      const dir = await services.media.scratchDir(`${job.id}/${stem}`);
      const size = FORMATS.find((f) => f.ratio === format)!;
      try {
        // The pictures and logo as local files: each variant shows its own picture.
        const storyboard = await withLocalImages(services, direction.storyboard);
        const variants = staticVariants(storyboard, STATIC_VARIANTS);
        const designs: StaticDesign[] = [];
        for (const [i, variant] of variants.entries()) {
          const file = `${stem}-${variant.id.toLowerCase()}.png`;
          const drawn = await renderStaticAd(storyboard, variant, format, join(dir, file));
          const key = jobMediaKey(job.id, file);
          const stored = await services.media.put(key, drawn.path);
          designs.push({ id: variant.id, layout: variant.layout, headline: variant.headline, key, bytes: stored.bytes });
          progress((i + 1) / variants.length);
        }
        const first = designs[0]!;
        return {
          format,
          kind: "image",
          key: first.key,
          thumbnailKey: first.key,
          width: size.width,
          height: size.height,
          durationSec: 0,
          bytes: designs.reduce((sum, d) => sum + d.bytes, 0),
          designs,
        } satisfies RenderedFormat & { designs: StaticDesign[] };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

/** local-audit: scores the page read by read_page. */
const auditStep: PipelineStep = {
  name: STEP.audit,
  weight: 5,
  async run({ outputs }) {
    const page = outputs.get(STEP.readPage) as PageFacts;
    return auditPage(page) satisfies AuditReport;
  },
};

export interface AuditReportOutput {
  key: string;
  bytes: number;
}

/** local-audit: the scored report as a PDF among the job's media. */
const auditReportStep: PipelineStep = {
  name: STEP.auditReport,
  weight: 5,
  async run({ services, job, outputs }) {
    const report = outputs.get(STEP.audit) as AuditReport;
    const page = outputs.get(STEP.readPage) as PageFacts | undefined;
    const dir = await services.media.scratchDir(`${job.id}/audit`);
    try {
      const file = join(dir, "audit-report.pdf");
      await writeAuditPdf(report, page?.title ?? null, file);
      const key = jobMediaKey(job.id, "audit-report.pdf");
      const stored = await services.media.put(key, file);
      return { key, bytes: stored.bytes } satisfies AuditReportOutput;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};

/** The steps only some types run (their names come from `typeSteps` in schema/src/pipeline.ts). */
export const TYPE_STEPS: readonly PipelineStep[] = [auditStep, auditReportStep, brandKitStep];

type MediaUrl = (key: string) => string;
const PLATFORM: Record<AspectRatio, string> = { "16:9": "youtube", "9:16": "tiktok", "1:1": "instagram", "4:5": "instagram" };

/**
 * The type's additions to the result: a static ad's variants (the first of each format is its
 * one-per-format asset; the others follow all of those, so assets[i] stays format i), a local audit's
 * PDF (a `document` asset) and scored report, a brand film's kit.
 */
export function typeResult(
  request: WorkflowRequest,
  outputs: Map<string, unknown>,
  rendered: RenderedFormat[],
  assets: OutputAsset[],
  url: MediaUrl,
): { assets: OutputAsset[]; audit?: AuditReport; variants?: FactoryVariant[]; brandKit?: BrandKit } {
  // factory: every hook variant of every format, as one batch.
  if (request.type === "factory") return factoryResult(rendered, assets, url);
  if (request.type === "staticad") {
    const designed = rendered.map((r) => ({ r, designs: (r as RenderedFormat & { designs?: StaticDesign[] }).designs ?? [] }));
    if (!designed.some((d) => d.designs.length)) return { assets };
    const asset = (r: RenderedFormat, d: StaticDesign): OutputAsset => ({
      url: url(d.key),
      type: "image",
      format: r.format,
      duration: 0,
      platform: PLATFORM[r.format],
      width: r.width,
      height: r.height,
      thumbnail: url(d.key),
      variant: d.id,
      headline: d.headline,
      layout: d.layout,
    });
    const firsts = designed.map(({ r, designs }, i) => (designs[0] ? asset(r, designs[0]) : assets[i]!));
    const rest = designed.flatMap(({ r, designs }) => designs.slice(1).map((d) => asset(r, d)));
    return { assets: [...firsts, ...rest] };
  }
  if (request.type === "local-audit") {
    const report = outputs.get(STEP.audit) as AuditReport | undefined;
    const pdf = outputs.get(STEP.auditReport) as AuditReportOutput | undefined;
    if (!report) return { assets };
    const reportUrl = pdf ? url(pdf.key) : null;
    const document: OutputAsset[] = reportUrl ? [{ url: reportUrl, type: "document", format: "pdf", duration: 0, platform: "report" }] : [];
    return { assets: [...assets, ...document], audit: { ...report, reportUrl } };
  }
  if (request.type === "brand") {
    const read = outputs.get(STEP.brandKit) as BrandKitOutput | undefined;
    return read?.kit ? { assets, brandKit: read.kit } : { assets };
  }
  return { assets };
}

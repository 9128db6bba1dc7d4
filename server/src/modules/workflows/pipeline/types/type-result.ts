// What only some workflow types add (schema/src/pipeline.ts names and orders their steps): their own steps
// and their parts of the result: a factory's hook variants, a static ad's stills, a local audit's report,
// a brand film's kit.
import { type AuditReport, type BrandKit, type FactoryVariant, type OutputAsset, STEP, type WorkflowRequest } from "@adgen/schema";
import { type BrandKitOutput, brandKitStep } from "./brand.ts";
import { auditReportStep, auditStep, localAuditResult } from "./local-audit.ts";
import { staticAdResult } from "./staticad.ts";
import { factoryResult } from "./factory.ts";
import type { PipelineStep, RenderedFormat } from "../step-types.ts";

/** The steps only some types run (their names come from `typeSteps` in schema/src/pipeline.ts). */
export const TYPE_STEPS: readonly PipelineStep[] = [auditStep, auditReportStep, brandKitStep];

type MediaUrl = (key: string) => string;

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
  if (request.type === "staticad") return staticAdResult(rendered, assets, url);
  if (request.type === "local-audit") return localAuditResult(outputs, assets, url);
  if (request.type === "brand") {
    const read = outputs.get(STEP.brandKit) as BrandKitOutput | undefined;
    return read?.kit ? { assets, brandKit: read.kit } : { assets };
  }
  return { assets };
}

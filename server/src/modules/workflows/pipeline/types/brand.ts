// brand (Brand Clone): the `brand_kit` step. It reads the brand's site (the page read_page read: the
// request's url, else the profile's websiteUrl) for its colours, logo, fonts, tone and claims, saves them
// to the brand profile as its kit (the profile's own colours and logo are filled from it only where the
// user set none), and keeps the kit for the result. Art direction, which runs next, reads the profile.
import { type BrandKit, STEP } from "@adgen/schema";
import { claimsIn, toneOf } from "../../../brand/brand-voice.ts";
import { saveBrandKit } from "../../../brand/brand-profile.ts";
import { type PageMeta, readPageMeta } from "../../../net/page-meta.ts";
import { unreadablePageMessage } from "../../launch/preview-page.ts";
import { PermanentJobError } from "../job-errors.ts";
import type { PageFacts, PipelineStep } from "../step-types.ts";

const MAX_KIT_COLORS = 8;

/** What the step stores: the kit (null only in outputs stored by older versions, which went on without one). */
export interface BrandKitOutput {
  kit: BrandKit | null;
  warnings: string[];
}

/** The kit a read page shows, or null when nothing could be read from it. */
export function brandKitFromPage(meta: PageMeta, extractedAt: Date): BrandKit | null {
  if (!meta.brand) return null;
  const { fonts, logoCandidates, copy } = meta.brand;
  // The title and description are copy too (often the brand's own one-line pitch).
  const text = [...new Set([meta.title, meta.description, ...copy].filter((line): line is string => !!line))];
  return {
    sourceUrl: meta.url,
    colors: meta.colors.slice(0, MAX_KIT_COLORS),
    logoUrl: logoCandidates[0] ?? null,
    fonts,
    tone: toneOf(text),
    claims: claimsIn(copy),
    extractedAt: extractedAt.toISOString(),
  };
}

export const brandKitStep: PipelineStep = {
  name: STEP.brandKit,
  weight: 10,
  async run({ services, job, request, outputs, signal }) {
    const page = outputs.get(STEP.readPage) as PageFacts;
    const meta = await readPageMeta(page.url, { resolver: services.resolver, timeoutMs: 10_000, signal, brand: true });
    const kit = brandKitFromPage(meta, new Date());
    if (!kit) {
      // read_page read the site a moment ago, this read failed: no kit is made up, the profile is left as it
      // was, and the job fails and is refunded in full.
      const why = unreadablePageMessage(meta, "brand") ?? `We could not read the brand's site at ${page.url}.`;
      throw new PermanentJobError(`${why} The brand profile was left as it was.`);
    }
    await saveBrandKit(services.prisma, job.userId, kit, request.brand);
    return { kit, warnings: [] } satisfies BrandKitOutput;
  },
};

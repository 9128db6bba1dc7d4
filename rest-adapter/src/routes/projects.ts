import { AnalyticsQuery, BrandProfile, BrandProfileInput, Project, StatsQuery } from "@adgen/schema";
import { getBrandProfile, saveBrandProfile } from "@adgen/server/modules/brand/brand-profile.ts";
import {
  downloadExport,
  exportAccountData,
  exportProjectsCsv,
  exportProjectsZip,
  exportSource,
  getExport,
  startExport,
} from "@adgen/server/modules/projects/exports.ts";
import { userAnalytics, userStats } from "@adgen/server/modules/projects/insights.ts";
import { listProjects } from "@adgen/server/modules/projects/projects.ts";
import { getWebhookSettings, saveWebhookSettings, WebhookSettingsInput } from "@adgen/server/modules/webhooks/endpoint.ts";
import { parseInput } from "@adgen/server/errors.ts";
import { z } from "zod";
import { route } from "../route.ts";
import { attachment } from "../streaming.ts";

const ExportFormat = z.object({ format: z.enum(["csv", "zip"], { error: "format must be csv or zip" }).optional() });

const projects = { tag: "Projects", auth: "user" } as const;

export const projectRoutes = [
  route({
    ...projects,
    method: "GET",
    path: "/user/projects",
    operation: "projects.list",
    summary: "Your projects (one per launch, id = job id), newest first",
    response: z.array(Project),
    handler: (ctx) => listProjects(ctx),
  }),
  route({
    ...projects,
    method: "GET",
    path: "/user/projects/export",
    operation: "projects.export",
    summary: "Download your projects: CSV, or `?format=zip` (or Accept: application/zip) for a ZIP of videos and metadata",
    query: ExportFormat,
    handler: async (ctx, { query, headers }) => {
      parseInput(ExportFormat, query);
      const zip = query.format === "zip" || (!query.format && /application\/zip/.test(headers.get("accept") ?? ""));
      if (zip) {
        const { filename, stream } = await exportProjectsZip(ctx);
        return attachment(filename, stream, "application/zip");
      }
      const { filename, body } = await exportProjectsCsv(ctx);
      return attachment(filename, body, "text/csv; charset=utf-8");
    },
  }),
  route({
    ...projects,
    method: "GET",
    path: "/export",
    operation: "export.download",
    summary:
      "With `source` (an https video URL on an allowed host, or one of your media URLs): that video as MP4. Without: your account data as JSON.",
    query: z.object({ source: z.string().optional() }),
    errors: { 404: "Video not found" },
    handler: async (ctx, { query }) => {
      if (query.source) {
        const video = await exportSource(ctx, query.source);
        return attachment(video.filename, video.stream, video.contentType, video.length);
      }
      const data = await exportAccountData(ctx);
      return attachment(
        `account-export-${new Date().toISOString().slice(0, 10)}.json`,
        JSON.stringify({ success: true, data }, null, 2),
        "application/json",
      );
    },
  }),
  route({
    ...projects,
    method: "POST",
    path: "/export",
    operation: "export.start",
    summary: "Start a background export (a ZIP of all your projects); follow it with GET /export/{id}",
    handler: (ctx) => startExport(ctx),
  }),
  route({
    ...projects,
    method: "GET",
    path: "/export/{id}",
    operation: "export.status",
    summary: "State of a background export",
    errors: { 404: "Export not found" },
    handler: (ctx, { params }) => getExport(ctx, params.id ?? ""),
  }),
  route({
    ...projects,
    method: "GET",
    path: "/export/{id}/download",
    operation: "export.file",
    summary: "The ZIP of a completed background export",
    errors: { 404: "Export not found", 409: "Export not finished" },
    handler: async (ctx, { params }) => {
      const file = await downloadExport(ctx, params.id ?? "");
      return attachment(file.filename, file.stream, "application/zip", file.length);
    },
  }),
  route({
    ...projects,
    method: "GET",
    path: "/user/stats",
    operation: "user.stats",
    summary: "Projects by type, credits used, success rate (optional startDate, endDate as YYYY-MM-DD)",
    query: StatsQuery,
    handler: (ctx, { query }) => userStats(ctx, query),
  }),
  route({
    ...projects,
    method: "GET",
    path: "/user/analytics",
    operation: "user.analytics",
    summary: "Trends, usage by type, credit distribution and peak hours over 7d, 30d or 90d",
    query: AnalyticsQuery,
    handler: (ctx, { query }) => userAnalytics(ctx, query),
  }),
  route({
    method: "GET",
    path: "/user/brand",
    operation: "brand.get",
    tag: "Brand",
    auth: "user",
    summary: "Your brand profile (both field sets), or null",
    response: BrandProfile.nullable(),
    handler: (ctx) => getBrandProfile(ctx),
  }),
  route({
    method: "POST",
    path: "/user/brand",
    operation: "brand.save",
    tag: "Brand",
    auth: "user",
    summary: "Save your brand profile (either field set); answers it with its id, which the workflow field `brand` takes",
    body: BrandProfileInput,
    response: BrandProfile,
    handler: (ctx, { body }) => saveBrandProfile(ctx, body as z.input<typeof BrandProfileInput>),
  }),
  route({
    method: "GET",
    path: "/user/webhook",
    operation: "webhook.get",
    tag: "Webhooks",
    auth: "user",
    summary: "Your default webhook endpoint, its signing secret and recent deliveries",
    handler: (ctx) => getWebhookSettings(ctx),
  }),
  route({
    method: "POST",
    path: "/user/webhook",
    operation: "webhook.save",
    tag: "Webhooks",
    auth: "user",
    summary: "Set (or clear with null) your default webhook URL; `rotateSecret: true` issues a new secret",
    body: WebhookSettingsInput,
    handler: (ctx, { body }) => saveWebhookSettings(ctx, body as z.input<typeof WebhookSettingsInput>),
  }),
];

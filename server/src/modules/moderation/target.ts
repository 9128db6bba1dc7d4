// What a notice is about: a project id, or a media address of this service (absolute on PUBLIC_URL or a
// bare `/api/media/<jobId>/<file>` path). Either way it names one project.
import type { Services } from "../../request-context.ts";
import { AppError } from "../../errors.ts";

const MEDIA_PATH = /^\/api\/media\/([A-Za-z0-9_-]+)\/[^/?#]+$/;

function jobIdOf(target: string, publicUrl: string): string | null {
  if (target.startsWith("/")) return target.match(MEDIA_PATH)?.[1] ?? null;
  if (/^https?:\/\//i.test(target)) {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return null;
    }
    if (url.origin !== new URL(publicUrl).origin) return null;
    return url.pathname.match(MEDIA_PATH)?.[1] ?? null;
  }
  return /^[A-Za-z0-9_-]{1,64}$/.test(target) ? target : null;
}

/** The reported project, or a 400 that says what a valid target looks like. */
export async function resolveNoticeTarget(services: Services, target: string) {
  const { publicUrl } = services.config;
  const jobId = jobIdOf(target, publicUrl);
  const job = jobId ? await services.prisma.job.findUnique({ where: { id: jobId }, select: { id: true, userId: true, name: true } }) : null;
  if (!job) {
    throw new AppError(
      "BAD_REQUEST",
      `target: no project of this service has that id or address; give a project id or a media address like ${publicUrl}/api/media/<project id>/<file>`,
      { fields: [{ field: "target", message: "no project of this service has that id or address" }] },
    );
  }
  return job;
}

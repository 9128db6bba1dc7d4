// The pictures an ad shows: the user's own product photos (brand media library) first, then the
// product page's images (og:image first), and the brand's logo. Each is fetched with the SSRF-safe
// fetcher, checked by its bytes (PNG, JPEG or WebP of a usable size) and kept among the job's media, so a
// retried job and every format render the same pictures. A picture that cannot be used is skipped with a
// warning; an ad without pictures is still made (from type and colour).
import { copyFile, writeFile } from "node:fs/promises";
import { extname, join } from "node:path";
import type { Job } from "@adgen/prisma";
import type { Services } from "../../../context.ts";
import { jobMediaKey } from "../../../media/storage.ts";
import { safeFetch } from "../../net/safe-fetch.ts";
import { imageSizeFromBytes } from "../../render/image-size.ts";
import type { Storyboard } from "../../render/types.ts";

/** Pictures an ad uses at most (one per scene before the call to action). */
export const MAX_PICTURES = 4;
/** A picture's shorter side must be at least this (icons, pixels and thumbnails look broken full-screen). */
const MIN_PICTURE_SIDE = 300;
const MIN_LOGO_SIDE = 24;
const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
/** Page images tried at most (the page may list many; most are icons). */
const MAX_TRIES = 8;

export interface Picture {
  /** Media key of the stored copy. */
  key: string;
  width: number;
  height: number;
  /** Where it came from: the page image's URL, or "library" for the user's own photo. */
  source: string;
}

export interface Imagery {
  pictures: Picture[];
  logo: Picture | null;
  warnings: string[];
}

export interface ImageryInput {
  /** The page's images, best first (og:image, twitter:image, large <img>). */
  pageImages: string[];
  /** The brand's logo URL (profile or brand kit), if any. */
  logoUrl: string | null;
  /** The user's own photos, already stored (brand media library). */
  library: { key: string; width: number; height: number }[];
}

type Kind = "png" | "jpg" | "webp";

/** The image format from the first bytes (the Content-Type header of a remote server is not trusted). */
export function imageKind(bytes: Uint8Array): Kind | null {
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return "png";
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpg";
  if (String.fromCharCode(...bytes.subarray(0, 4)) === "RIFF" && String.fromCharCode(...bytes.subarray(8, 12)) === "WEBP") return "webp";
  return null;
}

const shortUrl = (url: string) => (url.length > 80 ? `${url.slice(0, 77)}…` : url);

/** Fetches one remote image and stores it as `file` among the job's media, or says why it cannot be used. */
async function fetchImage(
  services: Services,
  job: Job,
  url: string,
  file: string,
  minSide: number,
  signal?: AbortSignal,
): Promise<Picture | string> {
  try {
    const response = await safeFetch(url, {
      resolver: services.resolver,
      timeoutMs: 8_000,
      maxBytes: MAX_IMAGE_BYTES,
      headers: { accept: "image/png,image/jpeg,image/webp;q=0.9,*/*;q=0.1" },
      ...(signal ? { signal } : {}),
    });
    if (response.status !== 200) return `answered HTTP ${response.status}`;
    const kind = imageKind(response.body);
    if (!kind) return "is not a PNG, JPEG or WebP image";
    const size = imageSizeFromBytes(response.body);
    if (!size || size.width === 0 || size.height === 0) return "has no readable size";
    if (Math.min(size.width, size.height) < minSide) return `is too small (${size.width}×${size.height} px)`;
    const dir = await services.media.scratchDir(`${job.id}/imagery`);
    const local = join(dir, `${file}.${kind}`);
    await writeFile(local, response.body);
    const key = jobMediaKey(job.id, `${file}.${kind}`);
    await services.media.put(key, local);
    return { key, width: size.width, height: size.height, source: url };
  } catch (error) {
    if (signal?.aborted) throw error;
    return (error as Error).message;
  }
}

/** The job's pictures and logo: library photos first, then page images, each checked; never throws for a bad picture. */
export async function gatherImagery(services: Services, job: Job, input: ImageryInput, signal?: AbortSignal): Promise<Imagery> {
  const warnings: string[] = [];
  const pictures: Picture[] = [];
  // The user's photos are copied among the job's media: deleting one from the library later does not
  // break a retry or a re-render of this job.
  for (const photo of input.library.slice(0, MAX_PICTURES)) {
    const ext = extname(photo.key) || ".jpg";
    const file = `picture-${pictures.length + 1}${ext}`;
    try {
      const dir = await services.media.scratchDir(`${job.id}/imagery`);
      await copyFile(await services.media.localFile(photo.key), join(dir, file));
      const key = jobMediaKey(job.id, file);
      await services.media.put(key, join(dir, file));
      pictures.push({ key, width: photo.width, height: photo.height, source: "library" });
    } catch (error) {
      warnings.push(`A photo from your brand library could not be used: ${(error as Error).message}`);
    }
  }
  const seen = new Set<string>();
  for (const url of input.pageImages.slice(0, MAX_TRIES)) {
    if (pictures.length >= MAX_PICTURES) break;
    if (seen.has(url)) continue;
    seen.add(url);
    const got = await fetchImage(services, job, url, `picture-${pictures.length + 1}`, MIN_PICTURE_SIDE, signal);
    if (typeof got === "string") {
      // Small images are common (icons, tracking pixels): only a picture that should have worked is worth a warning.
      if (!got.startsWith("is too small")) warnings.push(`The page's image ${shortUrl(url)} could not be used: it ${got}.`);
      continue;
    }
    pictures.push(got);
  }
  let logo: Picture | null = null;
  if (input.logoUrl) {
    const got = await fetchImage(services, job, input.logoUrl, "logo", MIN_LOGO_SIDE, signal);
    if (typeof got === "string") warnings.push(`The brand logo ${shortUrl(input.logoUrl)} could not be used: it ${got}.`);
    else logo = got;
  }
  return { pictures, logo, warnings };
}

/** The storyboard with its pictures' and logo's media keys turned into local files the renderer can open. */
export async function withLocalImages(services: Services, storyboard: Storyboard): Promise<Storyboard> {
  const logoKey = storyboard.brand.logoKey;
  const logoPath = logoKey ? await services.media.localFile(logoKey) : null;
  const scenes: Storyboard["scenes"] = [];
  for (const scene of storyboard.scenes) {
    scenes.push(scene.imageKey ? { ...scene, imagePath: await services.media.localFile(scene.imageKey) } : scene);
  }
  return { ...storyboard, brand: { ...storyboard.brand, ...(logoPath ? { logoPath } : {}) }, scenes };
}

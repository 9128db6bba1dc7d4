// The pictures an ad shows: the user's own product photos (brand media library) first, then the
// product page's images (og:image first), and the brand's logo. Each is fetched with the SSRF-safe
// fetcher (a logo uploaded here is read from the media store), checked by its bytes (PNG, JPEG or WebP of a usable size) and kept among the job's media, so a
// retried job and every format render the same pictures. A picture that cannot be used is skipped with a
// warning; an ad without pictures is still made (from type and colour).
import { copyFile, readFile, writeFile } from "node:fs/promises";
import { extname, join } from "node:path";
import type { Job } from "@adgen/prisma";
import type { Services } from "../../../request-context.ts";
import { jobMediaKey } from "../../../media/storage.ts";
import { uploadedLogoKey } from "../../brand/brand-logo.ts";
import { safeFetch } from "../../net/safe-fetch.ts";
import { imageSizeFromBytes } from "../../render/image-size.ts";
import type { Persona, Storyboard } from "../../render/types.ts";

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

/** A clip of the user's own (brand media library), copied among the job's media. */
export interface Clip {
  key: string;
  width: number;
  height: number;
  durationSec: number;
}

export interface Imagery {
  pictures: Picture[];
  logo: Picture | null;
  warnings: string[];
  /** The user's product footage, cut to the ad's beats (absent in outputs stored by older versions). */
  footage?: Clip[];
  /** The person who fronts a narrated ad: the newest presenter clip, else the newest presenter photo. */
  presenter?: { key: string; kind: "image" | "video"; name?: string } | null;
}

export interface ImageryInput {
  /** The page's images, best first (og:image, twitter:image, large <img>). */
  pageImages: string[];
  /** The brand's logo URL (profile or brand kit), if any. */
  logoUrl: string | null;
  /** The user's library, already stored (brand media library): product photos, presenters and footage. */
  library: {
    key: string;
    width: number;
    height: number;
    role?: string;
    kind?: "image" | "video";
    durationSec?: number | null;
    /** A presenter's name as given with their consent. */
    consentName?: string | null;
  }[];
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

/** Checks an image's bytes and stores them as `file` among the job's media, or says why they cannot be used. */
async function keepImage(
  services: Services,
  job: Job,
  bytes: Uint8Array,
  file: string,
  minSide: number,
  source: string,
): Promise<Picture | string> {
  const kind = imageKind(bytes);
  if (!kind) return "is not a PNG, JPEG or WebP image";
  const size = imageSizeFromBytes(bytes);
  if (!size || size.width === 0 || size.height === 0) return "has no readable size";
  if (Math.min(size.width, size.height) < minSide) return `is too small (${size.width}×${size.height} px)`;
  const dir = await services.media.scratchDir(`${job.id}/imagery`);
  const local = join(dir, `${file}.${kind}`);
  await writeFile(local, bytes);
  const key = jobMediaKey(job.id, `${file}.${kind}`);
  await services.media.put(key, local);
  return { key, width: size.width, height: size.height, source };
}

/**
 * The brand's logo: one uploaded here is read from the media store (its address is this service's own,
 * which the outbound guard rightly refuses to fetch); any other address is fetched like a page image.
 */
async function loadLogo(services: Services, job: Job, url: string, signal?: AbortSignal): Promise<Picture | string> {
  const uploaded = uploadedLogoKey(services, url);
  if (!uploaded) return fetchImage(services, job, url, "logo", MIN_LOGO_SIDE, signal);
  try {
    const info = await services.media.stat(uploaded);
    if (!info) return "is no longer stored here (upload the logo again)";
    if (info.bytes > MAX_IMAGE_BYTES) return "is too large";
    const bytes = await readFile(await services.media.localFile(uploaded));
    return await keepImage(services, job, bytes, "logo", MIN_LOGO_SIDE, url);
  } catch (error) {
    return (error as Error).message;
  }
}

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
    return await keepImage(services, job, response.body, file, minSide, url);
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
  // break a retry or a re-render of this job. Only product photos are pictures of the product.
  const photos = input.library.filter((item) => (item.role ?? "product") === "product" && (item.kind ?? "image") === "image");
  for (const photo of photos.slice(0, MAX_PICTURES)) {
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
    const got = await loadLogo(services, job, input.logoUrl, signal);
    if (typeof got === "string") warnings.push(`The brand logo ${shortUrl(input.logoUrl)} could not be used: it ${got}.`);
    else logo = got;
  }
  const footage: Clip[] = [];
  for (const [i, clip] of input.library
    .filter((item) => item.role === "footage" && item.kind === "video")
    .slice(0, MAX_PICTURES)
    .entries()) {
    const key = await keepForJob(services, job, clip.key, `footage-${i + 1}.mp4`).catch((error: Error) => {
      warnings.push(`A clip from your brand library could not be used: ${error.message}`);
      return null;
    });
    if (key) footage.push({ key, width: clip.width, height: clip.height, durationSec: clip.durationSec ?? 0 });
  }
  // The newest presenter: a clip plays in the presenter's slot, a photo gets subtle motion.
  const presenters = input.library.filter((item) => item.role === "presenter").reverse();
  const chosen = presenters.find((item) => item.kind === "video") ?? presenters[0];
  let presenter: Imagery["presenter"] = null;
  if (chosen) {
    const ext = chosen.kind === "video" ? ".mp4" : extname(chosen.key) || ".jpg";
    const key = await keepForJob(services, job, chosen.key, `presenter${ext}`).catch((error: Error) => {
      warnings.push(`Your presenter could not be used: ${error.message}`);
      return null;
    });
    if (key) presenter = { key, kind: chosen.kind ?? "image", ...(chosen.consentName ? { name: chosen.consentName } : {}) };
  }
  return { pictures, logo, warnings, footage, presenter };
}

/** A library file copied among the job's media (a retry still has it after the library item is deleted). */
async function keepForJob(services: Services, job: Job, from: string, file: string): Promise<string> {
  const dir = await services.media.scratchDir(`${job.id}/imagery`);
  await copyFile(await services.media.localFile(from), join(dir, file));
  const key = jobMediaKey(job.id, file);
  await services.media.put(key, join(dir, file));
  return key;
}

/** The storyboard with its pictures' and logo's media keys turned into local files the renderer can open. */
/** The presenter's photo or clip as a local file, for the renderer. */
export async function withLocalPersona(services: Services, persona: Persona): Promise<Persona> {
  return {
    ...persona,
    ...(persona.photoKey ? { photoPath: await services.media.localFile(persona.photoKey) } : {}),
    ...(persona.videoKey ? { videoPath: await services.media.localFile(persona.videoKey) } : {}),
  };
}

export async function withLocalImages(services: Services, storyboard: Storyboard): Promise<Storyboard> {
  const logoKey = storyboard.brand.logoKey;
  const logoPath = logoKey ? await services.media.localFile(logoKey) : null;
  const scenes: Storyboard["scenes"] = [];
  for (const scene of storyboard.scenes) {
    scenes.push({
      ...scene,
      ...(scene.imageKey ? { imagePath: await services.media.localFile(scene.imageKey) } : {}),
      ...(scene.videoKey ? { videoPath: await services.media.localFile(scene.videoKey) } : {}),
    });
  }
  return { ...storyboard, brand: { ...storyboard.brand, ...(logoPath ? { logoPath } : {}) }, scenes };
}

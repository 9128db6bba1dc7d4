// A brand's logo as an uploaded file: PNG, WebP or SVG, judged by content (not name). It is stored as a
// PNG in the media store and its public address becomes the brand's `logoUrl`, which ads put on their end
// card. A raster is size-checked from its header before it is decoded, and decoded and scaled only in a
// memory-limited ffmpeg child. An SVG is never served as SVG: it is
// drawn to a PNG, and only after refusing what could reach outside the file (DOCTYPE and entities, links
// or styles that load another resource, scripts and foreign objects), so drawing it fetches nothing.
// Logos are public by nature (they go on every ad), so the stored file is served without a session under
// an unguessable id.
import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BRAND_LOGO_LIMITS, type BrandLogo, BrandLogoUpload } from "@adgen/schema";
import { createCanvas, loadImage } from "@napi-rs/canvas";
import type { Services } from "../../request-context.ts";
import { AppError, Errors, parseInput } from "../../errors.ts";
import type { AuditSource } from "../audit/record-audit.ts";
import { getBrand, saveBrandProfile, updateBrand } from "./brand-profile.ts";
import { decodePicture, type ImageHeader, readImageHeader } from "./image-probe.ts";

const LOGO_PREFIX = "brand-logos";
const MB = 1024 * 1024;

const bad = (message: string) => new AppError("BAD_REQUEST", message, { fields: [{ field: "file", message }] });

export const brandLogoUrl = (services: Services, file: string) => `${services.config.publicUrl}/api/brand-logos/${file}`;

/** Markup with an <svg> element near its start (after an XML declaration, comments or a DOCTYPE)? */
function looksLikeSvg(text: string): boolean {
  const start = text.replace(/^\uFEFF/, "").trimStart();
  return start.startsWith("<") && /<svg[\s>]/i.test(start.slice(0, 4096));
}

/** Why this SVG is refused, or null: anything that could load another resource or expand when parsed. */
export function svgHazard(text: string): string | null {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return "it declares a DOCTYPE or entities";
  if (/<script\b/i.test(text)) return "it contains a script";
  if (/<foreignObject\b/i.test(text)) return "it embeds foreign content";
  for (const match of text.matchAll(/\b(?:xlink:)?href\s*=\s*(["'])(.*?)\1/gis)) {
    const target = match[2]!.trim();
    if (!target.startsWith("#") && !/^data:image\/(png|jpeg|webp);base64,/i.test(target)) return "it links to another file";
  }
  for (const match of text.matchAll(/url\(\s*(["']?)(.*?)\1\s*\)/gis)) {
    if (!match[2]!.trim().startsWith("#")) return "its style loads another file";
  }
  if (/@import\b/i.test(text)) return "its style imports another file";
  return null;
}

/** The logo as a PNG file in `scratch`, at most storedLongSide px on its longer side, with its size. */
interface Stored {
  path: string;
  width: number;
  height: number;
  uploaded: BrandLogo["uploaded"];
}

/**
 * A PNG or WebP logo is checked from its header, then decoded and scaled in a memory-limited ffmpeg child (in
 * the account's turn of the media pool): a 4096 px logo is 64 MB of pixels, which the HTTP process never holds.
 */
async function storeRaster(path: string, header: ImageHeader, owner: string, scratch: string): Promise<Stored> {
  const { minSide, maxSide, storedLongSide } = BRAND_LOGO_LIMITS;
  if (header.animated) throw bad("The logo is an animated WebP: send a still image");
  if (Math.min(header.width, header.height) < minSide)
    throw bad(`The logo is ${header.width}×${header.height} px: send one at least ${minSide} px on its shorter side`);
  if (Math.max(header.width, header.height) > maxSide)
    throw bad(`The logo is ${header.width}×${header.height} px: send one at most ${maxSide} px on its longer side`);
  const output = join(scratch, "logo.png");
  if ((await decodePicture(path, owner, { output, longSide: storedLongSide })) !== "ok") {
    throw bad("The logo could not be read as an image: it may be damaged");
  }
  const stored = await readImageHeader(output);
  if (!stored) throw new Error("the scaled logo could not be read back");
  return { path: output, width: stored.width, height: stored.height, uploaded: header.mime === "image/png" ? "png" : "webp" };
}

/**
 * An SVG is drawn with its longer side at storedLongSide, after refusing what could reach outside the file:
 * the drawing is bounded by that size, whatever the SVG declares.
 */
async function storeSvg(path: string, scratch: string): Promise<Stored> {
  const text = (await readFile(path)).toString("utf8");
  if (!looksLikeSvg(text)) throw bad("The logo must be a PNG, WebP or SVG file");
  const hazard = svgHazard(text);
  if (hazard) throw bad(`This SVG cannot be used as a logo: ${hazard}. Export it as a plain SVG or a PNG`);
  const image = await loadImage(Buffer.from(text, "utf8")).catch(() => {
    throw bad("The SVG could not be drawn: check that it is a valid SVG file");
  });
  if (!(image.width > 0 && image.height > 0)) throw bad("The SVG has no size: give its <svg> a width and height, or a viewBox");
  const scale = BRAND_LOGO_LIMITS.storedLongSide / Math.max(image.width, image.height);
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const canvas = createCanvas(width, height);
  canvas.getContext("2d").drawImage(image, 0, 0, width, height);
  const output = join(scratch, "logo.png");
  await writeFile(output, await canvas.encode("png"));
  return { path: output, width, height, uploaded: "svg" };
}

async function storeLogo(path: string, bytes: number, owner: string, scratch: string): Promise<Stored> {
  if (bytes > BRAND_LOGO_LIMITS.maxBytes) throw bad(`The logo is larger than ${BRAND_LOGO_LIMITS.maxBytes / MB} MB: send a smaller file`);
  if (bytes === 0) throw bad("The logo file is empty");
  const header = await readImageHeader(path);
  if (header && (header.mime === "image/png" || header.mime === "image/webp")) return storeRaster(path, header, owner, scratch);
  return storeSvg(path, scratch);
}

export async function uploadBrandLogo(
  services: Services,
  user: { id: string },
  source: AuditSource,
  input: BrandLogoUpload,
): Promise<BrandLogo> {
  const { file, brandId } = parseInput(BrandLogoUpload, input);
  // Another account's brand (or none) is refused before anything is stored.
  if (brandId) await getBrand(services, user, brandId);
  const scratch = await mkdtemp(join(tmpdir(), "adgen-logo-"));
  let stored: Stored;
  const name = `${randomUUID()}.png`;
  try {
    stored = await storeLogo(file.path, file.bytes, user.id, scratch);
    await services.media.put(`${LOGO_PREFIX}/${name}`, stored.path);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  const logoUrl = brandLogoUrl(services, name);
  const brand = brandId
    ? await updateBrand(services, user, source, { id: brandId, logoUrl })
    : await saveBrandProfile(services, user, source, { logoUrl });
  return { brandId: brand.id, logoUrl, width: stored.width, height: stored.height, uploaded: stored.uploaded };
}

/**
 * The media key of one of this service's uploaded logos, named by the address its upload answered, or null
 * for any other address. Jobs read such a logo from the media store: fetching it over HTTP would go through
 * the outbound guard, which refuses this service's own (often local) address. The file name is an
 * unguessable id, so the same path under a loopback host or an earlier PUBLIC_URL is ours too; an address
 * elsewhere is a remote logo and is fetched as one.
 */
export function uploadedLogoKey(services: Services, url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const file = /^\/api\/brand-logos\/([0-9a-f-]{36}\.png)$/.exec(parsed.pathname)?.[1];
  if (!file) return null;
  const ownPrefix = brandLogoUrl(services, "");
  const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(parsed.hostname);
  if (!url.startsWith(ownPrefix) && !loopback && parsed.host !== new URL(services.config.publicUrl).host) return null;
  return `${LOGO_PREFIX}/${file}`;
}

/** A stored logo, by the file name in its URL. */
export async function openBrandLogo(services: Services, file: string) {
  if (!/^[0-9a-f-]{36}\.png$/.test(file)) throw Errors.notFound("Logo");
  const key = `${LOGO_PREFIX}/${file}`;
  const info = await services.media.stat(key);
  if (!info) throw Errors.notFound("Logo");
  return { key, ...info };
}

// The user's picture changes to a previewed storyboard: a scene shows a product photo of their brand media
// library instead, or no picture at all ("none"). The photo is copied among the new preview's media, as a
// job's library photos are (imagery.ts): deleting it from the library later does not break the launch that
// renders this preview.
import { copyFile } from "node:fs/promises";
import { extname, join } from "node:path";
import { NO_PICTURE, type SceneEdit } from "@adgen/schema";
import { AppError } from "../../../errors.ts";
import { jobMediaKey } from "../../../media/storage.ts";
import type { Services } from "../../../request-context.ts";
import type { Scene, Storyboard } from "../../render/types.ts";

/** Where a picture comes from in a scene: what a new picture replaces (a clip plays over a picture). */
const PICTURE_FIELDS = ["imagePath", "imageKey", "imageSize", "subject", "videoPath", "videoKey", "videoStartSec"] as const;

function withoutPicture(scene: Scene): Scene {
  const bare = { ...scene };
  for (const field of PICTURE_FIELDS) delete bare[field];
  return bare;
}

/**
 * Applies the edits' `picture` to the storyboard (its scenes already checked by applySceneEdits), for the
 * preview `previewId` of the account `userId`. A photo that is not one of the account's product photos is a
 * 400 naming the edit, whoever's it is (another account's id says nothing about that account).
 */
export async function applyScenePictures(
  services: Services,
  userId: string,
  previewId: string,
  storyboard: Storyboard,
  edits: SceneEdit[],
): Promise<Storyboard> {
  if (!edits.some((edit) => edit.picture !== undefined)) return storyboard;
  const scenes = [...storyboard.scenes];
  for (const [i, edit] of edits.entries()) {
    if (edit.picture === undefined) continue;
    const at = edit.scene - 1;
    const scene = withoutPicture(scenes[at]!);
    if (edit.picture === NO_PICTURE) {
      scenes[at] = scene;
      continue;
    }
    const photo = await services.prisma.brandMedia.findFirst({ where: { id: edit.picture, userId, role: "product" } });
    if (!photo || photo.durationSec !== null) {
      const message = `There is no product photo "${edit.picture}" in your brand media library: upload it on the Brand page (POST /api/user/brand/media) and use its id, or send "${NO_PICTURE}" for no picture`;
      throw new AppError("BAD_REQUEST", message, { fields: [{ field: `edits.${i}.picture`, message }] });
    }
    const file = `edit-picture-${edit.scene}${extname(photo.fileKey) || ".jpg"}`;
    const dir = await services.media.scratchDir(`${previewId}/edits`);
    await copyFile(await services.media.localFile(photo.fileKey), join(dir, file));
    const key = jobMediaKey(previewId, file);
    await services.media.put(key, join(dir, file));
    scenes[at] = { ...scene, imageKey: key, imageSize: { width: photo.width, height: photo.height } };
  }
  return { ...storyboard, scenes };
}

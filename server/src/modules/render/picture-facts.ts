// The facts about each picture the layouts need and the storyboard may not give: its size, and the box the
// product fills in it (found in its pixels), read once per file.
import { findSubjectBox } from "./subject-box.ts";
import { imageSize } from "./image-size.ts";
import { loadWorkingPicture } from "./working-picture.ts";
import type { Scene, Storyboard } from "./types.ts";

/** Each picture's size and the product's box in it, when the storyboard does not say (read once per file). */
export async function withPictureFacts(storyboard: Storyboard): Promise<Storyboard> {
  const facts = new Map<string, Promise<Pick<Scene, "imageSize" | "subject">>>();
  const read = (path: string) => {
    let known = facts.get(path);
    if (!known) {
      known = (async () => {
        const size = await imageSize(path);
        if (!size) return {};
        try {
          // The working copy (at most 2048 px): the box is found on a 128 px sample anyway.
          const picture = await loadWorkingPicture(path);
          if (!picture) return { imageSize: size };
          const box = await findSubjectBox(picture);
          return { imageSize: size, subject: { x: box.x, y: box.y, w: box.w, h: box.h } };
        } catch {
          return { imageSize: size };
        }
      })();
      facts.set(path, known);
    }
    return known;
  };
  const scenes = await Promise.all(
    storyboard.scenes.map(async (scene) => {
      if (!scene.imagePath || scene.videoPath || (scene.imageSize && scene.subject)) return scene;
      const found = await read(scene.imagePath);
      return { ...found, ...scene };
    }),
  );
  return { ...storyboard, scenes };
}

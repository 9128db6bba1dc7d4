// The user's changes to a previewed storyboard's lines: a scene's headline, body or call to action. An empty
// body or call to action removes it; the headline's highlighted words are kept only while it still says them.
// A picture change is scene-pictures.ts's (it reads the brand media library).
import type { SceneEdit } from "@adgen/schema";
import { AppError } from "../../../errors.ts";
import type { Storyboard } from "../../render/types.ts";

export function applySceneEdits(storyboard: Storyboard, edits: SceneEdit[]): Storyboard {
  const scenes = storyboard.scenes.map((scene) => ({ ...scene }));
  for (const [i, edit] of edits.entries()) {
    const scene = scenes[edit.scene - 1];
    if (!scene) {
      const message = `There is no scene ${edit.scene}: this storyboard has ${scenes.length} scenes`;
      throw new AppError("BAD_REQUEST", message, { fields: [{ field: `edits.${i}.scene`, message }] });
    }
    if (edit.headline !== undefined) {
      scene.headline = edit.headline;
      if (scene.emphasis && !edit.headline.includes(scene.emphasis)) delete scene.emphasis;
    }
    if (edit.body !== undefined) {
      if (edit.body) scene.body = edit.body;
      else delete scene.body;
    }
    if (edit.cta !== undefined) {
      if (edit.cta) scene.cta = edit.cta;
      else delete scene.cta;
    }
  }
  return { ...storyboard, scenes };
}

// One still per scene of a storyboard, as the renderer draws it (`VideoRenderer.previewFrame`, the frame the
// video shows at the renderer's documented moment of the scene), made small enough to send in an answer:
// a JPEG at the size of the format's standard video. Two stills are drawn at a time (each is an ffmpeg run).
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { createCanvas, loadImage } from "@napi-rs/canvas";
import { type AspectRatio, tierFrameSize } from "@adgen/schema";
import type { Services } from "../../../request-context.ts";
import type { Storyboard } from "../../render/types.ts";
import { withLocalImages } from "../pipeline/imagery.ts";

export interface Still {
  scene: number;
  sceneId: string;
  headline: string;
  image: string;
  width: number;
  height: number;
}

const AT_ONCE = 2;

export async function drawStills(services: Services, storyboard: Storyboard, format: AspectRatio): Promise<Still[]> {
  const local = await withLocalImages(services, storyboard);
  const { width, height } = tierFrameSize(format, "standard");
  const dir = await mkdtemp(join(tmpdir(), "adgen-preview-"));
  try {
    const stills: Still[] = new Array(local.scenes.length);
    let next = 0;
    const worker = async () => {
      while (next < local.scenes.length) {
        const index = next++;
        const file = join(dir, `scene-${index + 1}.png`);
        await services.renderer.previewFrame(local, index, format, file);
        const picture = await loadImage(file);
        const canvas = createCanvas(width, height);
        canvas.getContext("2d").drawImage(picture, 0, 0, width, height);
        const jpeg = await canvas.encode("jpeg", 85);
        const scene = storyboard.scenes[index]!;
        stills[index] = {
          scene: index + 1,
          sceneId: scene.id,
          headline: scene.headline,
          image: `data:image/jpeg;base64,${jpeg.toString("base64")}`,
          width,
          height,
        };
      }
    };
    await Promise.all(Array.from({ length: Math.min(AT_ONCE, local.scenes.length) }, worker));
    return stills;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// A render thread (render-thread.ts starts it): runs the drawing tasks the main thread sends, one at a time,
// and answers each with its result or its error. An abort message stops the task it names.
import { parentPort } from "node:worker_threads";
import type { RenderTask, ThreadAnswer, ThreadError, ThreadRequest } from "./render-thread-types.ts";

const port = parentPort;
if (!port) throw new Error("render-thread-entry.ts runs as a worker thread (render-thread.ts starts it)");
const answer = (message: ThreadAnswer) => port.postMessage(message);
const controllers = new Map<number, AbortController>();

async function run(task: RenderTask, signal: AbortSignal, onProgress: (fraction: number) => void): Promise<unknown> {
  switch (task.name) {
    case "static-ad": {
      const { renderStaticAd } = await import("./static-ad.ts");
      return renderStaticAd(...task.args);
    }
    case "motion-scene": {
      const { playIntoEncoder } = await import("./motion/player.ts");
      return playIntoEncoder({ ...task.args, signal, onProgress });
    }
    case "motion-still": {
      const { drawStill } = await import("./motion/player.ts");
      return drawStill(...task.args);
    }
    default:
      throw new Error(`a render thread has no task named ${(task as { name: string }).name}`);
  }
}

function describe(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { name: "Error", message: String(error) };
  const exitCode = (error as { exitCode?: number | null }).exitCode;
  return { name: error.name, message: error.message, stack: error.stack, exitCode };
}

port.on("message", async (request: ThreadRequest) => {
  if ("abort" in request) return controllers.get(request.abort)?.abort();
  const { id, task } = request;
  const controller = new AbortController();
  controllers.set(id, controller);
  try {
    const result = await run(task, controller.signal, (progress) => answer({ id, progress }));
    answer({ id, result });
  } catch (error) {
    answer({ id, error: describe(error) });
  } finally {
    controllers.delete(id);
  }
});

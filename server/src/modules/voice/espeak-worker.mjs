// Runs eSpeak NG (WebAssembly, voices inside the package) off the main thread: each message is one utterance.
// An Emscripten module runs its main() once, so every utterance gets a fresh instance (≈0.5–1 s).
import { parentPort } from "node:worker_threads";
import ESpeakNg from "espeak-ng";

parentPort.on("message", async (message) => {
  const { id, text, voice, wordsPerMinute } = message;
  let errors = "";
  try {
    const engine = await ESpeakNg({
      arguments: ["-v", voice, "-s", String(wordsPerMinute), "-w", "/out.wav", "-f", "/in.txt"],
      // The text goes in through a file, so nothing in it can be read as an option.
      preRun: [(module) => module.FS.writeFile("/in.txt", text)],
      print() {},
      printErr(line) {
        errors += `${line}\n`;
      },
      // The default quit sets process.exitCode: never let the engine touch the process.
      quit(status, toThrow) {
        if (status) errors += `exit status ${status}\n`;
        throw toThrow;
      },
    });
    let wav;
    try {
      wav = engine.FS.readFile("/out.wav");
    } catch {
      throw new Error(`eSpeak NG wrote no audio${errors ? `: ${errors.trim()}` : ""}`);
    }
    const bytes = new Uint8Array(wav);
    parentPort.postMessage({ id, wav: bytes }, [bytes.buffer]);
  } catch (error) {
    parentPort.postMessage({
      id,
      error: `${error?.message ?? error}${errors && !String(error?.message).includes(errors.trim()) ? ` (${errors.trim()})` : ""}`,
    });
  }
});

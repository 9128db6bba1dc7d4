// Runs eSpeak NG (WebAssembly, voices inside the package) off the main thread: each message is one utterance.
// An Emscripten module runs its main() once, so every utterance gets a fresh instance (≈0.1–0.3 s).
// `ssml` reads the text as SSML (`-m`): word-timing.ts sends the words again with a break after each.
import { parentPort } from "node:worker_threads";
import ESpeakNg from "espeak-ng";

parentPort.on("message", async (message) => {
  const { id, text, voice, wordsPerMinute, ssml } = message;
  let errors = "";
  try {
    const engine = await ESpeakNg({
      arguments: [...(ssml ? ["-m"] : []), "-v", voice, "-s", String(wordsPerMinute), "-w", "/out.wav", "-f", "/in.txt"],
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

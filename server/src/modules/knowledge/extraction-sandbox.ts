// Document extraction runs in a child process of its own (extraction-child.ts), never on the service's
// event loop: with a limit on its resident memory (memory-watch.ts; V8's heap limit besides), so a
// document that needs gigabytes kills only its child, and a wall-clock limit, past which the child is
// killed. Either ends in an ExtractionError in the user's words. The child
// is the bundle's extraction-child.js when this code runs from the build (server/scripts/build.mjs), and
// the TypeScript source through tsx otherwise (tests, `tsx src/main.ts`).
import { fork } from "node:child_process";
import { createRequire } from "node:module";
import { setPriority } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { KnowledgeFileKind } from "@adgen/schema";
import { type Extracted, ExtractionError } from "./extraction-error.ts";
import { watchMemory } from "./memory-watch.ts";

/**
 * The limits of one extraction's child (a nice level of 10 besides): tests shorten the time. `memoryMb`
 * is its whole resident size (heap, the buffers pdf.js inflates streams into, code): the 500 pages read
 * of a 20,000-page PDF peak at 180 MB.
 */
export const extractionSandbox = {
  timeoutMs: 30_000,
  heapMb: 512,
  memoryMb: 640,
};

export type SandboxKind = KnowledgeFileKind | "html";
export type SandboxReply = { ok: true; text: string; warning: string | null } | { ok: false; error: string | null; detail: string };
/** The child's first message: its modules are loaded, the document's time limit starts. */
export type SandboxReady = { ready: true };

/** How long a child may take to start (load its modules) before its document's time limit begins. */
const STARTUP_MS = 60_000;

const NOUN: Record<SandboxKind, string> = {
  pdf: "PDF",
  docx: "Word document",
  xlsx: "workbook",
  csv: "CSV file",
  txt: "text file",
  html: "page",
};

function childEntry(): { file: string; execArgv: string[] } {
  // The build rewrites `import.meta.url` to the source file's URL; read through a variable it is the
  // running file's, which tells the bundle (a .js beside extraction-child.js) from the source.
  const running = import.meta;
  if (!running.url.endsWith(".ts")) return { file: fileURLToPath(new URL("./extraction-child.js", running.url)), execArgv: [] };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
  return { file: fileURLToPath(new URL("./extraction-child.ts", import.meta.url)), execArgv: ["--import", tsx] };
}

/** What the child may see of the environment: no secrets, nothing that changes Node's options. */
function childEnv(): NodeJS.ProcessEnv {
  const { PATH, TMPDIR, HOME } = process.env;
  return Object.fromEntries(Object.entries({ PATH, TMPDIR, HOME }).filter(([, value]) => value !== undefined));
}

/** The text of the document at `path`, read in a child process within the limits. */
export function extractInSandbox(kind: SandboxKind, path: string): Promise<Extracted> {
  const { timeoutMs, heapMb, memoryMb } = extractionSandbox;
  const { file, execArgv } = childEntry();
  const noun = NOUN[kind];
  const instead = kind === "html" ? "try another page" : "split it or upload the text";
  return new Promise((resolve, reject) => {
    const child = fork(file, [kind, path], {
      execArgv: [...execArgv, `--max-old-space-size=${heapMb}`],
      env: childEnv(),
      stdio: ["ignore", "ignore", "pipe", "ipc"],
      serialization: "advanced",
    });
    // Below the service in the CPU's queue: on a small machine the extraction waits, not the requests.
    if (child.pid) {
      try {
        setPriority(child.pid, 10);
      } catch {
        // Not allowed here (some containers): it runs at the service's priority.
      }
    }
    // The end of what it wrote to stderr (V8's out-of-memory report), for the log; the rest is dropped.
    let stderr = Buffer.alloc(0);
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr = Buffer.concat([stderr, chunk.subarray(-1000)]).subarray(-1000);
    });
    let reply: SandboxReply | null = null;
    let timedOut = false;
    let overMemory = false;
    const expire = () => {
      timedOut = true;
      child.kill("SIGKILL");
    };
    let timer = setTimeout(expire, Math.max(timeoutMs, STARTUP_MS));
    const memory = child.pid
      ? watchMemory(child.pid, memoryMb, () => {
          overMemory = true;
          child.kill("SIGKILL");
        })
      : null;
    child.on("message", (message: SandboxReply | SandboxReady) => {
      if ("ready" in message) {
        clearTimeout(timer);
        timer = setTimeout(expire, timeoutMs);
        return;
      }
      reply = message;
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      memory?.stop();
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      memory?.stop();
      const answer = reply as SandboxReply | null;
      if (answer?.ok) return resolve(answer.warning ? { text: answer.text, warning: answer.warning } : { text: answer.text });
      if (answer?.error) return reject(new ExtractionError(answer.error));
      const seconds = Math.round(timeoutMs / 1000);
      const message = overMemory
        ? `This ${noun} needs more memory to read than a document may use; ${instead}`
        : timedOut
          ? `This ${noun} could not be read within ${seconds} seconds; ${instead}`
          : answer
            ? `This ${noun} could not be read (it is damaged or not what its name says); ${instead}`
            : `This ${noun} needs more memory to read than a document may use; ${instead}`;
      const held = `held at most ${memory?.peakMb() ?? 0} MB of ${memoryMb}`;
      const cause = answer?.detail ?? `extraction child ended (code ${code}, signal ${signal}, ${held}) ${stderr.toString().trim()}`;
      reject(new ExtractionError(message, { cause }));
    });
  });
}

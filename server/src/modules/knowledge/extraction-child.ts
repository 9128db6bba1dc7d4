// The extraction's child process (extraction-sandbox.ts starts it with a heap limit and a time limit):
// reads the one document its arguments name, sends back the text or the failure in the user's words, and
// exits. Whatever the document does to this process (memory, time, a crash) stays in this process.
import type { KnowledgeFileKind } from "@adgen/schema";
import { extractFileText, storedPageText } from "./extract.ts";
import { ExtractionError } from "./extraction-error.ts";
import type { SandboxReady, SandboxReply } from "./extraction-sandbox.ts";

// The service went away (it stopped, or gave up on this extraction): nobody waits for the answer.
process.on("disconnect", () => process.exit(1));

// Loaded: the time limit counts from here (starting a process is not reading the document, and on a busy
// machine the start alone took more than a TXT's whole limit).
process.send?.({ ready: true } satisfies SandboxReady);

const [kind, path] = process.argv.slice(2) as [KnowledgeFileKind | "html", string];
let reply: SandboxReply;
try {
  const extracted = kind === "html" ? await storedPageText(path) : await extractFileText(path, kind);
  reply = { ok: true, text: extracted.text, warning: extracted.warning ?? null };
} catch (error) {
  reply = { ok: false, error: error instanceof ExtractionError ? error.message : null, detail: (error as Error)?.message ?? String(error) };
}
process.send?.(reply, () => process.exit(0));

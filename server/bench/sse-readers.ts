// The SSE bench's clients, in a worker thread of their own: reading and parsing 10,000 streams costs as
// much CPU as serving them, and on the server's thread it would be counted as the server's latency.
// Each arrival is stamped with an absolute time (timeOrigin + now), comparable across threads.
import { Worker } from "node:worker_threads";

export interface ReaderJob {
  url: string;
  cookie: string;
  jobId: string;
  subscribers: number;
  rounds: number;
}

export interface ReaderWorker {
  /** Resolves when every subscriber's stream has answered its headers. */
  connected: Promise<{ connected: number; failed: number }>;
  /** Resolves with each subscriber's arrivals: [progress, absolute ms] pairs. */
  done: Promise<{ arrivals: [number, number][]; failed: number }>;
}

const READER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { url, cookie, jobId, subscribers, rounds } = workerData;
let connected = 0, failed = 0, settled = 0;
const arrivals = [];
const now = () => performance.timeOrigin + performance.now();
function settle() {
  settled += 1;
  if (settled === subscribers) parentPort.postMessage({ kind: "done", arrivals, failed });
}
async function open() {
  let res;
  try {
    res = await fetch(url + "/api/workflow/stream?jobId=" + jobId, { headers: { cookie } });
  } catch {
    failed += 1;
    if (connected + failed === subscribers) parentPort.postMessage({ kind: "connected", connected, failed });
    settle();
    return;
  }
  connected += 1;
  if (connected + failed === subscribers) parentPort.postMessage({ kind: "connected", connected, failed });
  read(res);
}
async function read(res) {
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "", seen = 0;
  try {
    while (seen < rounds) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let cut = buffer.indexOf("\\n\\n");
      while (cut >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const data = block.split("\\n").find((l) => l.startsWith("data: "));
        if (data) {
          const progress = JSON.parse(data.slice(6)).progress;
          if (progress >= 1) { arrivals.push([progress, now()]); seen += 1; }
        }
        cut = buffer.indexOf("\\n\\n");
      }
    }
  } catch {}
  reader.cancel().catch(() => {});
  settle();
}
// In batches: 10,000 connections at once overflow the listen backlog, as they would at any server.
(async () => {
  for (let i = 0; i < subscribers; i += 250) {
    await Promise.all(Array.from({ length: Math.min(250, subscribers - i) }, open));
  }
})();
`;

export function startReaders(job: ReaderJob): ReaderWorker & { stop(): Promise<number> } {
  const worker = new Worker(READER_SOURCE, { eval: true, workerData: job });
  let onConnected: (value: { connected: number; failed: number }) => void = () => {};
  let onDone: (value: { arrivals: [number, number][]; failed: number }) => void = () => {};
  const connected = new Promise<{ connected: number; failed: number }>((resolve) => {
    onConnected = resolve;
  });
  const done = new Promise<{ arrivals: [number, number][]; failed: number }>((resolve) => {
    onDone = resolve;
  });
  worker.on("message", (message: { kind: string; connected?: number; failed: number; arrivals?: [number, number][] }) => {
    if (message.kind === "connected") onConnected({ connected: message.connected ?? 0, failed: message.failed });
    if (message.kind === "done") onDone({ arrivals: message.arrivals ?? [], failed: message.failed });
  });
  return { connected, done, stop: () => worker.terminate() };
}

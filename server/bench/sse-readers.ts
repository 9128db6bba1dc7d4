// The SSE bench's clients, in a worker thread of their own: reading and parsing 10,000 streams costs as
// much CPU as serving them, and on the server's thread it would be counted as the server's latency. Each
// reads a raw socket: through fetch, the client's own web streams cost more than the server (on the same
// two cores).
// Each arrival is stamped with an absolute time (timeOrigin + now), comparable across threads.
import { Worker } from "node:worker_threads";

export interface ReaderJob {
  url: string;
  /**
   * The job's stream as REST's SSE (`/api/workflow/stream`), as the SPA reads it (tRPC's `workflow.stream`),
   * or as analytics partners do (GraphQL's `workflowStream` over graphql-ws).
   */
  transport: "rest" | "trpc" | "graphql";
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
const net = require("node:net");
const { url, transport, cookie, jobId, subscribers, rounds } = workerData;
const { hostname, port } = new URL(url);
const path = transport === "trpc"
  ? "/trpc/workflow.stream?input=" + encodeURIComponent(JSON.stringify({ jobId }))
  : "/api/workflow/stream?jobId=" + jobId;
const request = "GET " + path + " HTTP/1.1\\r\\nHost: " + hostname + ":" + port +
  "\\r\\nAccept: text/event-stream\\r\\nCookie: " + cookie + "\\r\\n\\r\\n";
let connected = 0, failed = 0, settled = 0;
const arrivals = [];
const now = () => performance.timeOrigin + performance.now();
function settle() {
  settled += 1;
  if (settled === subscribers) parentPort.postMessage({ kind: "done", arrivals, failed });
}
function answered(ok) {
  if (ok) connected += 1; else failed += 1;
  if (connected + failed === subscribers) parentPort.postMessage({ kind: "connected", connected, failed });
}
// One raw socket per subscriber, as a lean client on another machine would read it: the status line,
// then each event's progress figure found in the bytes (chunk sizes and all), stamped on arrival.
function open() {
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let head = true, text = "", seen = 0, done = false;
    const finish = () => { if (done) return; done = true; socket.destroy(); settle(); };
    socket.setNoDelay(true);
    // A connection that has had no answer in 30 s counts as refused, so the run goes on without it.
    const refuse = () => { if (head) { head = false; answered(false); resolve(); } finish(); };
    const unanswered = setTimeout(refuse, 30000);
    socket.on("connect", () => socket.write(request));
    socket.on("error", refuse);
    socket.on("close", () => { clearTimeout(unanswered); refuse(); });
    socket.on("data", (chunk) => {
      text += chunk.toString("latin1");
      if (head) {
        const end = text.indexOf("\\r\\n\\r\\n");
        if (end < 0) return;
        head = false;
        clearTimeout(unanswered);
        const ok = text.startsWith("HTTP/1.1 200");
        answered(ok);
        resolve();
        if (!ok) return finish();
        text = text.slice(end + 4);
      }
      const at = now();
      let cut = text.indexOf("\\n\\n");
      while (cut >= 0) {
        const match = /"progress":([0-9.]+)/.exec(text.slice(0, cut));
        text = text.slice(cut + 2);
        if (match && Number(match[1]) >= 1) { arrivals.push([Number(match[1]), at]); seen += 1; }
        cut = text.indexOf("\\n\\n");
      }
      if (seen >= rounds) finish();
    });
  });
}
// A graphql-ws client (the ws package's): it authenticates with the session's token, subscribes to the
// job, and finds each event's progress figure in the message text, stamped on arrival.
function openGraphql() {
  return new Promise((resolve) => {
    const WebSocket = require("ws");
    const socket = new WebSocket("ws://" + hostname + ":" + port + "/graphql", "graphql-transport-ws");
    let head = true, seen = 0, done = false;
    const finish = () => { if (done) return; done = true; socket.terminate(); settle(); };
    const refuse = () => { if (head) { head = false; answered(false); resolve(); } finish(); };
    const unanswered = setTimeout(refuse, 30000);
    socket.on("open", () => {
      socket.send(JSON.stringify({ type: "connection_init", payload: { authorization: "Bearer " + cookie.replace(/^session=/, "") } }));
    });
    socket.on("error", refuse);
    socket.on("close", () => { clearTimeout(unanswered); refuse(); });
    socket.on("message", (data) => {
      const text = data.toString("latin1");
      if (head) {
        if (text.includes('"connection_ack"')) {
          socket.send(JSON.stringify({ id: "1", type: "subscribe", payload: { query: "subscription($jobId: String!) { workflowStream(jobId: $jobId) { id jobId type step status progress } }", variables: { jobId } } }));
          return;
        }
        // The subscription's first answer: the current state, or its refusal.
        head = false;
        clearTimeout(unanswered);
        const ok = text.includes('"type":"next"');
        answered(ok);
        resolve();
        if (!ok) return finish();
      }
      const at = now();
      const match = /"progress":([0-9.]+)/.exec(text);
      if (match && Number(match[1]) >= 1) { arrivals.push([Number(match[1]), at]); seen += 1; }
      if (seen >= rounds) finish();
    });
  });
}
// In batches: 10,000 connections at once overflow the listen backlog, as they would at any server.
(async () => {
  for (let i = 0; i < subscribers; i += 250) {
    await Promise.all(Array.from({ length: Math.min(250, subscribers - i) }, transport === "graphql" ? openGraphql : open));
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

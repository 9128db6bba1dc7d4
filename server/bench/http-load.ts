// A lean HTTP/1.1 load generator in a worker thread of its own, for the launch bench: `connections`
// keep-alive sockets, each sending the next request as soon as the previous answer is in. Requests are
// built once as bytes. Through fetch (undici, on the server's own thread) the client's work was counted
// as the server's: it cost more CPU per request than a launch does.
import { Worker } from "node:worker_threads";

export interface LoadJob {
  url: string;
  path: string;
  body: string;
  /** One cookie per account; request i goes to account i mod cookies.length. */
  cookies: string[];
  connections: number;
  requests: number;
}

export interface LoadResult {
  /** How many answers had each status. */
  statuses: Record<string, number>;
  seconds: number;
}

const LOAD_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const net = require("node:net");
const { url, path, body, cookies, connections, requests } = workerData;
const { hostname, port } = new URL(url);
const payload = Buffer.from(body);
const built = cookies.map((cookie) => Buffer.concat([Buffer.from(
  "POST " + path + " HTTP/1.1\\r\\nHost: " + hostname + ":" + port + "\\r\\nContent-Type: application/json\\r\\n" +
  "Content-Length: " + payload.length + "\\r\\nCookie: " + cookie + "\\r\\n\\r\\n"), payload]));
const statuses = {};
let next = 0, answered = 0;
const started = performance.now();
function connection() {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    socket.setNoDelay(true);
    let buffer = Buffer.alloc(0);
    const send = () => {
      if (next >= requests) { socket.end(); return resolve(); }
      socket.write(built[next % built.length]);
      next += 1;
    };
    socket.on("connect", send);
    socket.on("error", reject);
    socket.on("data", (chunk) => {
      buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
      for (;;) {
        const end = buffer.indexOf("\\r\\n\\r\\n");
        if (end < 0) return;
        const head = buffer.subarray(0, end).toString("latin1");
        let bodyEnd;
        const length = /\\r\\ncontent-length: *(\\d+)/i.exec(head);
        if (length) bodyEnd = end + 4 + Number(length[1]);
        else if (/\\r\\ntransfer-encoding: *chunked/i.test(head)) {
          const last = buffer.indexOf("\\r\\n0\\r\\n\\r\\n", end);
          if (last < 0) return;
          bodyEnd = last + 7;
        } else bodyEnd = end + 4;
        if (buffer.length < bodyEnd) return;
        const status = head.slice(9, 12);
        statuses[status] = (statuses[status] || 0) + 1;
        answered += 1;
        buffer = buffer.subarray(bodyEnd);
        send();
      }
    });
  });
}
Promise.all(Array.from({ length: connections }, connection)).then(
  () => parentPort.postMessage({ statuses, seconds: (performance.now() - started) / 1000 }),
  (error) => parentPort.postMessage({ error: String(error) }),
);
`;

/** Runs the load to completion in a worker thread. */
export function runLoad(job: LoadJob): Promise<LoadResult> {
  const worker = new Worker(LOAD_SOURCE, { eval: true, workerData: job });
  return new Promise<LoadResult>((resolve, reject) => {
    worker.once("message", (message: LoadResult & { error?: string }) => {
      void worker.terminate();
      if (message.error) reject(new Error(message.error));
      else resolve(message);
    });
    worker.once("error", reject);
  });
}

// `pnpm bench knowledge`: memory while a 50 MB document streams into the knowledge base. The client sends
// the multipart body from a generator (nothing buffered on its side either); the process's RSS and heap are
// sampled every 20 ms. Flat means the peak stays far below the file's size.
import { memoryUsage } from "node:process";

type Started = { url: string; close(): Promise<void> };

const MB = 1024 * 1024;

function multipartStream(boundary: string, bytes: number): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const head = encoder.encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`,
  );
  const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  let sent = 0;
  let stage: "head" | "body" | "tail" | "done" = "head";
  return new ReadableStream({
    pull(controller) {
      if (stage === "head") {
        controller.enqueue(head);
        stage = "body";
      } else if (stage === "body") {
        const n = Math.min(chunk.length, bytes - sent);
        controller.enqueue(n === chunk.length ? chunk : chunk.subarray(0, n));
        sent += n;
        if (sent >= bytes) stage = "tail";
      } else if (stage === "tail") {
        controller.enqueue(tail);
        stage = "done";
      } else controller.close();
    },
  });
}

export async function knowledgeUploadMemory(
  startApp: () => Promise<Started>,
  login: (url: string, email: string, password: string, signup?: boolean) => Promise<string>,
  log: (line: string) => void,
) {
  const app = await startApp();
  try {
    const cookie = await login(app.url, `bench-knowledge-${Date.now()}@example.com`, "bench-password-1", true);
    globalThis.gc?.();
    const base = memoryUsage();
    let peakRss = base.rss;
    let peakHeap = base.heapUsed + base.arrayBuffers;
    const timer = setInterval(() => {
      const now = memoryUsage();
      peakRss = Math.max(peakRss, now.rss);
      peakHeap = Math.max(peakHeap, now.heapUsed + now.arrayBuffers);
    }, 20);
    const boundary = `bench${Date.now()}`;
    const started = performance.now();
    const res = await fetch(`${app.url}/api/user/brand/knowledge/files`, {
      method: "POST",
      headers: { cookie, "content-type": `multipart/form-data; boundary=${boundary}` },
      body: multipartStream(boundary, 50 * MB),
      duplex: "half",
    } as RequestInit);
    const seconds = (performance.now() - started) / 1000;
    clearInterval(timer);
    await res.arrayBuffer();
    const rss = (peakRss - base.rss) / MB;
    const heap = (peakHeap - (base.heapUsed + base.arrayBuffers)) / MB;
    log(
      `knowledge upload of a 50 MB document (HTTP ${res.status}, ${seconds.toFixed(1)} s): peak RSS +${rss.toFixed(1)} MB, peak JS heap + buffers +${heap.toFixed(1)} MB over the start (client and server in one process)`,
    );
  } finally {
    await app.close();
  }
}

// An idle keep-alive connection outlives a proxy's idle limit, so the server is never the one to close a
// connection a request is being sent on. With Node's 5 s, a caller that sent its next request after a pause
// of a few seconds could meet the close in flight and get ECONNRESET (a 502 from a load balancer).
import { Agent, get } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEEP_ALIVE_IDLE_MS } from "../src/http/app.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

describe("idle keep-alive connections", () => {
  it("are announced as kept 65 s, longer than a load balancer's 60 s", async () => {
    const res = await fetch(`${app.url}/api/health`);
    await res.arrayBuffer();
    expect(res.headers.get("connection")).toBe("keep-alive");
    expect(res.headers.get("keep-alive")).toBe(`timeout=${KEEP_ALIVE_IDLE_MS / 1000}`);
    expect(KEEP_ALIVE_IDLE_MS).toBeGreaterThan(60_000);
  });

  it("stay open past Node's 5 s: the next request after 6 s idle goes on the same connection", { timeout: 30_000 }, async () => {
    // One connection, kept: the second call is sent on the first one's socket.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const call = () =>
      new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
        const request = get(`${app.url}/api/health`, { agent }, (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0, reused: request.reusedSocket }));
        });
        request.on("error", reject);
      });
    expect(await call()).toEqual({ status: 200, reused: false });
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(await call()).toEqual({ status: 200, reused: true });
    agent.destroy();
  });
});

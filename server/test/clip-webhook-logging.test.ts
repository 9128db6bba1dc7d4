// A clip provider's webhook on a server without that provider's key answers 503 on every call, but the
// log says so once, at warn, naming the variable to set; each call's request line is at info, and
// nothing is logged as an error (the operator's log is not a fault report of a provider's retries).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../src/logging/logger.ts";
import { eventually } from "./support/accounts.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

const written: string[] = [];
const lines = () =>
  written
    .join("")
    .split("\n")
    .filter(Boolean)
    .map((text) => JSON.parse(text) as Record<string, any>);

let app: TestApp;
beforeAll(async () => {
  const logger = createLogger({ level: "debug", destination: { write: (line: string) => void written.push(line) } });
  app = await startTestApp({}, { logger });
});
afterAll(() => app?.close());

describe("an unconfigured clip-provider webhook", () => {
  it("answers 503 each time, warns once naming FAL_KEY, and logs no error", async () => {
    const calls = 3;
    for (let i = 0; i < calls; i += 1) {
      const response = await fetch(`${app.url}/api/webhook/clips/fal`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-request-id": `clip-webhook-${i}` },
        body: JSON.stringify({ request_id: "r", status: "OK" }),
      });
      expect(response.status).toBe(503);
      expect(((await response.json()) as { error: string }).error).toMatch(/not configured/);
    }
    const requestLines = await eventually(() => {
      const found = lines().filter((l) => l.msg === "request" && String(l.requestId).startsWith("clip-webhook-"));
      expect(found).toHaveLength(calls);
      return found;
    });
    expect(requestLines.map((l) => [l.status, l.level])).toEqual(Array.from({ length: calls }, () => [503, "info"]));
    const warnings = lines().filter((l) => l.level === "warn" && /clip webhook/.test(l.msg));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ provider: "fal", msg: expect.stringContaining("FAL_KEY") });
    expect(lines().filter((l) => ["error", "fatal"].includes(l.level))).toEqual([]);
  });
});

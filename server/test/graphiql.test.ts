// Outside production, GET /graphql from a browser answers GraphiQL, served offline from the service itself
// (its page is loaded on first use, not at start-up); in production it is off (security-transports.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ NODE_ENV: "development" });
});
afterAll(() => app?.close());

describe("GraphiQL outside production", () => {
  it("answers the page, titled, with its script inline (no CDN), the same on a second visit", async () => {
    for (let visit = 0; visit < 2; visit++) {
      const res = await fetch(`${app.url}/graphql`, { headers: { accept: "text/html" } });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      const page = await res.text();
      expect(page).toContain("<title>AdGen GraphQL</title>");
      expect(page.length).toBeGreaterThan(1_000_000);
      expect(page).not.toMatch(/unpkg\.com|jsdelivr/);
    }
  });
});

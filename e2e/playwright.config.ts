// The SPA in Debian's headless Chromium (Playwright downloads no browser here), against the real service
// started on its own port with an in-memory database.
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "@playwright/test";

const chromium = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
if (!existsSync(chromium)) {
  throw new Error(
    `No Chromium at ${chromium}. Install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH to a Chromium binary.`,
  );
}

const port = Number(process.env.E2E_PORT ?? 3199);
const dataDir = mkdtempSync(join(tmpdir(), "adgen-e2e-"));

export default defineConfig({
  testDir: "tests",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? "list" : [["list"]],
  outputDir: "test-results",
  use: {
    baseURL: `http://localhost:${port}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromium,
      args: [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  webServer: {
    command: "node ../scripts/start.mjs",
    url: `http://localhost:${port}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: "pipe",
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: "memory://",
      DATA_DIR: dataDir,
      WORKERS: "1",
      STUDIO_MAX_AD_SECONDS: "3",
      RATE_LIMIT_AUTH_PER_HOUR: "1000",
      // An administrator for the admin pages' specs (bootstrapped at start-up).
      ADMIN_EMAIL: "e2e-admin@example.com",
      ADMIN_PASSWORD: "e2e-admin-password",
      // Signs the Stripe event admin-flags.spec.ts sends (a payment that matches no account).
      STRIPE_WEBHOOK_SECRET: "whsec_e2e_only",
      // A request line each would bury the test report; warnings and errors still show.
      LOG_LEVEL: "warn",
    },
  },
});

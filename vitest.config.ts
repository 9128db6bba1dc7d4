import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["schema/test/**/*.test.ts", "server/test/**/*.test.ts", "rest-adapter/test/**/*.test.ts"],
    globalSetup: ["server/test/support/global-setup.ts"],
    // Each file gets its own database; two cores run two files at once.
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

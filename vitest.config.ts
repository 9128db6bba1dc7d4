import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "schema/test/**/*.test.ts",
      "server/test/**/*.test.ts",
      "rest-adapter/test/**/*.test.ts",
      // Several instances on one PostgreSQL server: only `pnpm test:pg` has a server to share.
      ...(process.env.TEST_DATABASE_URL ? ["server/test-pg/**/*.test.ts"] : []),
    ],
    globalSetup: ["server/test/support/global-setup.ts"],
    // Each file gets its own database; two cores run two files at once.
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

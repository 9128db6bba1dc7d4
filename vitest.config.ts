import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";

const serverRequire = createRequire(new URL("./server/package.json", import.meta.url));

export default defineConfig({
  resolve: {
    // graphql ships an ESM and a CJS build; Node (and so graphql-yoga) loads the CJS one, and a schema
    // built with the other "comes from another realm". Tests load the same build Node does.
    alias: [{ find: /^graphql$/, replacement: serverRequire.resolve("graphql") }],
  },
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

// `pnpm test:pg` runs on PostgreSQL only the test files that reach a database; this proves the sorting on a
// planted tree and on the real one (a file that starts the service through a support file counts).
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ESM script of the repository's root, without types
import { classifyTestFiles } from "../../scripts/database-test-files.mjs";

type Classified = { file: string; database: boolean };
const root = join(import.meta.dirname, "../..");

describe("which test files reach a database", () => {
  it("follows test support imports, but not the service's sources", () => {
    const tree = mkdtempSync(join(tmpdir(), "db-tests-"));
    mkdirSync(join(tree, "server/test/support"), { recursive: true });
    writeFileSync(join(tree, "server/test/support/app.ts"), 'export { startTestApp } from "./harness.ts";\n');
    writeFileSync(join(tree, "server/test/via-support.test.ts"), 'import { startTestApp } from "./support/app.ts";\n');
    writeFileSync(join(tree, "server/test/direct.test.ts"), "const db = await testDatabase();\n");
    writeFileSync(join(tree, "server/test/pure.test.ts"), 'import { render } from "../src/render.ts";\n');
    const found = (classifyTestFiles(tree) as Classified[]).sort((a, b) => a.file.localeCompare(b.file));
    expect(found).toEqual([
      { file: "server/test/direct.test.ts", database: true },
      { file: "server/test/pure.test.ts", database: false },
      { file: "server/test/via-support.test.ts", database: true },
    ]);
  });

  it("sorts this repository's tests: the renderer's are left to PGlite's run, the service's run on PostgreSQL", () => {
    const byFile = new Map((classifyTestFiles(root) as Classified[]).map((test) => [test.file, test.database]));
    expect(byFile.get("server/test/render-segments.test.ts")).toBe(false);
    expect(byFile.get("server/test/import-layers.test.ts")).toBe(false);
    expect(byFile.get("server/test/graphql-analytics-graph.test.ts")).toBe(true);
    expect(byFile.get("server/test/render-segment-farm.test.ts")).toBe(true);
    expect(byFile.get("server/test-pg/multi-instance.test.ts")).toBe(true);
  });
});

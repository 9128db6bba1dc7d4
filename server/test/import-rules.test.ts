// `pnpm lint` checks the house's imports with dependency-cruiser (.dependency-cruiser.cjs): no cycle,
// type-only imports included, and no import up the layers (schema ← db/config ← domain ← operations ←
// transports ← main). Here the same script runs on small planted trees, to show it fails on each kind of
// mistake and passes on a clean tree. (On this repository's own sources `pnpm lint` itself runs it in CI.)
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const scripts = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts as Record<string, string>;
const fixtures: string[] = [];

interface Lint {
  code: number;
  output: string;
}

/** Runs `pnpm run lint:imports` in `dir` (the repository, or a planted tree with the same config). */
function lintImports(dir: string): Promise<Lint> {
  return new Promise((resolve) => {
    execFile("pnpm", ["run", "--silent", "lint:imports"], { cwd: dir, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

/** A tree shaped like the repository's, holding `files` (path → source), linted by the real config. */
function plant(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "import-rules-"));
  fixtures.push(dir);
  for (const name of [".dependency-cruiser.cjs", "tsconfig.base.json"]) cpSync(join(root, name), join(dir, name));
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "planted", private: true, scripts: { "lint:imports": scripts["lint:imports"] } }),
  );
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  const base: Record<string, string> = {
    "schema/src/index.ts": "export type Id = string;\n",
    "rest-adapter/src/index.ts": "export type RestBinding = { path: string };\n",
    "server/src/db/sql.ts": 'import type { Id } from "../../../schema/src/index.ts";\nexport const rowId = (id: Id) => id;\n',
    "server/src/modules/area/types.ts": "export interface Thing { id: string }\n",
    "server/src/modules/area/reader.ts":
      'import { rowId } from "../../db/sql.ts";\nimport type { Thing } from "./types.ts";\nexport const read = (id: string): Thing => ({ id: rowId(id) });\n',
    "server/src/modules/area/writer.ts":
      'import { read } from "./reader.ts";\nimport type { Thing } from "./types.ts";\nexport const write = (thing: Thing) => read(thing.id);\n',
    "server/src/http/app.ts": 'import { write } from "../modules/area/writer.ts";\nexport const app = () => write({ id: "x" });\n',
  };
  for (const [path, source] of Object.entries({ ...base, ...files })) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), source);
  }
  return dir;
}

afterAll(() => {
  for (const dir of fixtures) rmSync(dir, { recursive: true, force: true });
});

describe("pnpm lint's import rules", () => {
  it("are part of pnpm lint", () => {
    expect(scripts.lint).toMatch(/&& pnpm run lint:imports$/);
    expect(scripts["lint:imports"]).toMatch(/^depcruise .*--config \.dependency-cruiser\.cjs$/);
  });

  it("pass on a tree whose imports point down and close no loop", async () => {
    const result = await lintImports(plant({}));
    expect(result.output).toContain("no dependency violations found");
    expect(result.code).toBe(0);
  });

  it("fail on a planted cycle, even one closed by a type-only import, and on planted upward imports", async () => {
    const result = await lintImports(
      plant({
        // A loop: the room's types import back from a file that imports them.
        "server/src/modules/area/types.ts":
          'import type { write } from "./writer.ts";\nexport interface Thing { id: string; then?: typeof write }\n',
        // The domain importing a transport.
        "server/src/modules/other/uses-http.ts": 'import { app } from "../../http/app.ts";\nexport const viaHttp = app;\n',
        // The database layer importing the domain.
        "server/src/db/sql.ts": 'import type { Thing } from "../modules/area/types.ts";\nexport const rowId = (id: Thing["id"]) => id;\n',
      }),
    );
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/no-circular: server\/src\/modules\/area\/\S+ →/);
    expect(result.output).toContain("layers-domain-imports-up: server/src/modules/other/uses-http.ts → server/src/http/app.ts");
    expect(result.output).toContain("layers-foundation-imports-up: server/src/db/sql.ts → server/src/modules/area/types.ts");
  });
});

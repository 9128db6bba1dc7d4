// Builds one migrated PGlite once per run and dumps it; every test file starts its own database from
// that dump in well under a second (a fresh PGlite plus migrations takes several).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { writeTemplate } from "../../src/db/write-pglite-template.ts";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), "adgen-template-"));
  const file = join(dir, "template.tar");
  if (!process.env.TEST_DATABASE_URL) {
    // The same dump `pnpm build` makes for a first start: migrated, with the queue's tables.
    await writeTemplate(file);
  }
  project.provide("pgliteTemplate", file);
  return () => rmSync(dir, { recursive: true, force: true });
}

// Builds one migrated PGlite once per run and dumps it; every test file starts its own database from
// that dump in well under a second (a fresh PGlite plus migrations takes several).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { TestProject } from "vitest/node";
import { pgliteSql } from "../../src/db/database.ts";
import { applyMigrations } from "../../src/db/migrate.ts";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), "adgen-template-"));
  const file = join(dir, "template.tar");
  if (!process.env.TEST_DATABASE_URL) {
    const db = new PGlite();
    await applyMigrations(pgliteSql(db));
    const dump = await db.dumpDataDir("none");
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    await db.close();
  }
  project.provide("pgliteTemplate", file);
  return () => rmSync(dir, { recursive: true, force: true });
}

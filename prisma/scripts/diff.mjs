// Schema ↔ migrations.
//   node scripts/diff.mjs <name>   writes migrations/<timestamp>_<name>/migration.sql with what the schema adds
//   node scripts/diff.mjs --check  exits 1 when schema.prisma and the migrations disagree (CI runs this)
// `prisma migrate dev` is not usable here (see STACK.md), so migrations are authored with `migrate diff`
// against a shadow PGlite.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const prisma = join(root, "node_modules/.bin/prisma");
const arg = process.argv[2];
const base = ["migrate", "diff", "--from-migrations", "migrations", "--to-schema-datamodel", "schema.prisma"];
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" };

if (arg === "--check") {
  try {
    execFileSync(prisma, [...base, "--exit-code"], { cwd: root, stdio: "pipe", env, timeout: 120_000 });
    console.log("schema.prisma and prisma/migrations agree");
  } catch (error) {
    if (error.status === 2) {
      console.error("schema.prisma has changes no migration records. Run: pnpm db:diff <name>");
      console.error(String(error.stdout));
    } else {
      console.error(String(error.stderr ?? error));
    }
    process.exit(1);
  }
} else {
  if (!arg || !/^[a-z0-9_]+$/.test(arg)) {
    console.error("usage: pnpm db:diff <snake_case_name>");
    process.exit(2);
  }
  const sql = execFileSync(prisma, [...base, "--script"], { cwd: root, env, timeout: 120_000 }).toString();
  if (!sql.trim() || /^-- This is an empty migration/.test(sql.trim())) {
    console.log("no changes");
    process.exit(0);
  }
  const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  const dir = join(root, "migrations", `${stamp}_${arg}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "migration.sql"), sql);
  console.log(`wrote ${dir}/migration.sql`);
}

// `pnpm test:pg`: the database-backed tests again on a PostgreSQL server. DATABASE_URL names a database
// on that server the tests may connect to (default: the local server's `postgres` database); each test
// file creates and drops its own uniquely named database beside it.
import { spawnSync } from "node:child_process";
import pg from "pg";
import { classifyTestFiles } from "./database-test-files.mjs";

const url = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
if (!/^postgres(ql)?:\/\//.test(url)) {
  console.error(`test:pg needs DATABASE_URL=postgres://… (got ${url})`);
  process.exit(2);
}
const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
try {
  await client.connect();
  const { rows } = await client.query("SHOW server_version");
  console.log(`test:pg on PostgreSQL ${rows[0].server_version} at ${new URL(url).host}`);
} catch (error) {
  console.error(`test:pg cannot reach PostgreSQL at ${url}: ${error.message}`);
  process.exit(2);
} finally {
  await client.end().catch(() => {});
}

const env = { ...process.env, TEST_DATABASE_URL: url };
delete env.DATABASE_URL;
// Named files run as asked; without names, every test file that reaches a database.
let files = process.argv.slice(2);
if (files.length === 0) {
  const classified = classifyTestFiles(process.cwd());
  files = classified.filter((test) => test.database).map((test) => test.file);
  const skipped = classified.length - files.length;
  console.log(`test:pg: ${files.length} test files reach a database; ${skipped} never open one and ran on PGlite's run only`);
}
const result = spawnSync("pnpm", ["exec", "vitest", "run", ...files], { stdio: "inherit", env });
process.exit(result.status ?? 1);

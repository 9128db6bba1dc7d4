// Which test files reach a database: those that start the service or open a database themselves, or import
// a test support file that does. `pnpm test:pg` runs only these on PostgreSQL; the others (the renderer's
// frames and sound, the copy writer, the OpenAPI document, the import layers) never open a database, so
// running them a second time there would prove nothing new and cost CI a third of its time.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const TEST_DIRS = ["schema/test", "server/test", "rest-adapter/test", "server/test-pg"];
const OPENS_A_DATABASE = /\b(testDatabase|startTestApp|createServices|openDatabase|PGlite)\b/;

/** Test files under `root`, each with whether it reaches a database. */
export function classifyTestFiles(root) {
  const memo = new Map();
  const reaches = (file, seen) => {
    if (memo.has(file)) return memo.get(file);
    if (seen.has(file)) return false;
    seen.add(file);
    let source;
    try {
      source = readFileSync(file, "utf8");
    } catch {
      return false;
    }
    let hit = OPENS_A_DATABASE.test(source);
    for (const match of hit ? [] : source.matchAll(/from\s+"(\.[^"]+)"/g)) {
      const target = resolve(dirname(file), match[1]);
      // Only test code decides: the service's own sources reach the database code from almost anywhere.
      if (/\/test(-pg)?\//.test(target) && reaches(target, seen)) {
        hit = true;
        break;
      }
    }
    memo.set(file, hit);
    return hit;
  };
  return TEST_DIRS.flatMap((dir) => {
    let names;
    try {
      names = readdirSync(join(root, dir));
    } catch {
      return [];
    }
    return names
      .filter((name) => name.endsWith(".test.ts"))
      .map((name) => {
        const file = join(root, dir, name);
        return { file: relative(root, file), database: reaches(file, new Set()) };
      });
  });
}

// Generates the Prisma client (TypeScript, ESM, no native engine) into prisma/generated.
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
execFileSync(join(root, "node_modules/.bin/prisma"), ["generate", "--no-hints"], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" },
});

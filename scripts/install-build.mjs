// After `pnpm install` (the root's postinstall): builds the SPA and the server bundle with its embedded
// database template now, so the first `pnpm start` costs what a restart costs. A failure here does not
// fail the install: `pnpm start` builds what is missing and shows why a build fails.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ensureServerBuilt, ensureWebBuilt, root } from "./built.mjs";

// A partial install (pnpm install --filter …, a production install without the build tools) has nothing to build with.
const tools = ["web/node_modules/.bin/vite", "server/node_modules/.bin/esbuild"].every((p) => existsSync(join(root, p)));
if (process.env.ADGEN_SKIP_INSTALL_BUILD === "1" || !tools) {
  console.log("Skipping the build at install time: pnpm start builds what it needs.");
} else {
  const exit = process.exit;
  // A failed stage calls process.exit: at install time it only says so.
  process.exit = (code) => {
    if (code) console.warn("The build at install time failed; pnpm start will build again and show why.");
    exit(0);
  };
  console.log("Building the web app and the server now, so the first start is quick:");
  await ensureWebBuilt(1, 2);
  await ensureServerBuilt(2, 2);
}

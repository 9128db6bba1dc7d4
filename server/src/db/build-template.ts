// `pnpm build`: writes the migrated embedded database a first start loads (pglite-template.ts).
import { TEMPLATE_FILE } from "./pglite-template.ts";
import { writeTemplate } from "./write-pglite-template.ts";

const started = performance.now();
await writeTemplate();
console.log(`embedded database template written in ${((performance.now() - started) / 1000).toFixed(1)} s: ${TEMPLATE_FILE}`);

// Where the migrations live, apart from the client: a first start reads them (to check the embedded
// database's template) before it loads Prisma.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const migrationsDir = join(dirname(fileURLToPath(import.meta.url)), "migrations");

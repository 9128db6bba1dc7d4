// The database package: the generated Prisma client and where the migrations live.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export * from "./generated/client/client.ts";
export const migrationsDir = join(dirname(fileURLToPath(import.meta.url)), "migrations");
export * from "./pglite-adapter.ts";
export { PrismaPg } from "@prisma/adapter-pg";

// The database package: the generated Prisma client and where the migrations live.
export * from "./generated/client/client.ts";
export { migrationsDir } from "./migrations-dir.ts";
export * from "./pglite-adapter.ts";
export { PrismaPg } from "@prisma/adapter-pg";

// Prisma CLI configuration: the schema engine runs as WebAssembly against an in-memory PGlite, so
// generating and diffing never downloads a binary and never touches a real database.
import { PGlite } from "@electric-sql/pglite";
import { defineConfig } from "prisma/config";
import { PGliteAdapterFactory } from "./pglite-adapter.ts";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "schema.prisma",
  migrations: { path: "migrations" },
  adapter: async () => new PGliteAdapterFactory(new PGlite()),
});

export * from "./enums.ts";
export * from "./common.ts";
export * from "./auth.ts";
export * from "./admin.ts";
export * from "./public.ts";
export * from "./catalog.ts";
export * from "./workflow.ts";

// The template's unpacking thread, run from source: tsx compiles the TypeScript the build would bundle
// (the service itself starts the built server/dist/unpack-template.js).
import { register } from "tsx/esm/api";

register();
await import("../../src/db/unpack-template-thread.ts");

// For browsers under a strict Content Security Policy (the SPA's allows no eval): zod compiles object
// parsers with `new Function`, and probes for it first; Chromium reports even that caught probe as a
// violation. Zod reads the setting when a schema is made, so import this before any schema.
import { z } from "zod";

z.config({ jitless: true });

// Importing each entity file registers its types and fields on the builder.
import { builder } from "./builder.ts";
import "./schema/auth.ts";
import "./schema/user.ts";
import "./schema/admin.ts";
import "./schema/public.ts";
import "./schema/workflow.ts";

export const schema = builder.toSchema();

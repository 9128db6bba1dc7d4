import type { RouterOutputs } from "../../trpc.ts";

export type Project = RouterOutputs["projects"]["list"][number];

// Managing projects: name, search and delete. A project is a job (CONTRACT). "Make another like this"
// needs no operation: the studio prefills from the job's `input` (workflow.status), and nothing is charged
// until the user launches.
import { z } from "zod";

export const PROJECT_NAME_MAX = 80;

const projectId = z
  .string({ error: "Say which project: its id is missing" })
  .trim()
  .min(1, { error: "Say which project: its id is missing" })
  .max(100, { error: "This project id is too long to be one of yours" });

export const ProjectIdInput = z.object({ id: projectId });

export const ProjectName = z
  .string({ error: "Give the project a name" })
  .trim()
  .min(1, { error: "Give the project a name: it cannot be empty" })
  .max(PROJECT_NAME_MAX, { error: `A project name can be at most ${PROJECT_NAME_MAX} characters` });

export const RenameProjectInput = z.object({ id: projectId, name: ProjectName });

export const ProjectsQuery = z.object({
  q: z
    .string({ error: "The search must be text" })
    .trim()
    .max(200, { error: "The search can be at most 200 characters" })
    .optional()
    .describe("Only projects whose name or concept contains this text (any case)"),
});

export const ProjectDeleted = z.object({ id: z.string(), deleted: z.literal(true) });

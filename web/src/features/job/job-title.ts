// A job's title as people read it: the project's name when it has one, else the workflow's name and the
// first words of the concept (or the page it read), never an id: "Static Ad · Cold brew that tastes…".
import { workflowName } from "../../lib/workflow.ts";

const TITLE_WORDS = 8;

/** The first few words of `text`, cut at a word, with an ellipsis when something was left out. */
export function firstWords(text: string, words = TITLE_WORDS): string {
  const all = text.replace(/\s+/g, " ").trim().split(" ").filter(Boolean);
  const kept = all
    .slice(0, words)
    .join(" ")
    .replace(/[.,;:!?-]+$/, "");
  return all.length > words ? `${kept}…` : kept;
}

function pageName(url: string): string | null {
  try {
    return new URL(url).hostname.replace(/^www\./, "") || null;
  } catch {
    return null;
  }
}

interface TitledJob {
  type: string;
  input?: Record<string, unknown> | null;
  /** The project's name, where the API gives one. */
  name?: string | null;
}

export function jobTitle(job: TitledJob): string {
  const name = typeof job.name === "string" ? job.name.trim() : "";
  if (name) return name;
  const workflow = workflowName(job.type);
  const concept = typeof job.input?.concept === "string" ? firstWords(job.input.concept) : "";
  if (concept) return `${workflow} · ${concept}`;
  const page = typeof job.input?.url === "string" ? pageName(job.input.url) : null;
  if (page) return `${workflow} · ${page}`;
  return /\bad$/i.test(workflow) ? workflow : `${workflow} ad`;
}

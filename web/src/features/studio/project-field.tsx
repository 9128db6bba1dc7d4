// ad-optimizer: which of the user's finished projects to improve (the projects list, completed only);
// left out, the server takes the latest one.
import { useQuery } from "@tanstack/react-query";
import { formatDateTime } from "../../lib/format.ts";
import { workflowName } from "../../lib/workflow.ts";
import { useTRPC } from "../../trpc.ts";
import { InlineError, Spinner } from "../../ui/status.tsx";
import type { Project } from "./form-state.ts";
import { Select } from "../../ui/select.tsx";

interface ProjectFieldProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}

export function ProjectField({ id, value, onChange, error }: ProjectFieldProps) {
  const trpc = useTRPC();
  const projects = useQuery(trpc.projects.list.queryOptions());
  if (projects.isPending) {
    return (
      <p className="field-hint" role="status">
        <Spinner size="sm" /> Loading your projects…
      </p>
    );
  }
  if (projects.isError) return <InlineError error={projects.error} onRetry={() => void projects.refetch()} />;
  const finished = projects.data.filter((p) => p.status === "completed");
  // A project named by the address (an "improve this ad" link) that is not finished is not offered.
  const known = !value || finished.some((p) => p.id === value);
  return (
    <Select
      id={id}
      label={
        <>
          Project to improve <span className="muted field-optional">optional</span>
        </>
      }
      value={known ? value : ""}
      onChange={onChange}
      error={error ?? (known ? undefined : "That project is not one of your finished projects; choose one below.")}
      errorTestId="field-error-project"
      testId="field-project"
      hint={
        finished.length === 0 ? (
          <span className="field-hint-warning" data-testid="project-none">
            You have no finished project yet. The Ad Optimizer improves one of your ads: make one first.
          </span>
        ) : (
          "The new ad keeps what worked, changes what held it back, and says what it changed and why."
        )
      }
    >
      <option value="">{finished.length ? "Your latest finished project" : "No finished project yet"}</option>
      {finished.map((p) => (
        <option key={p.id} value={p.id}>
          {projectLabel(p)}
        </option>
      ))}
    </Select>
  );
}

function projectLabel(project: Project): string {
  let concept = "";
  try {
    const input = JSON.parse(project.input_data) as { concept?: unknown; url?: unknown };
    concept = typeof input.concept === "string" ? input.concept : typeof input.url === "string" ? input.url : "";
  } catch {
    // An unreadable input only loses its summary.
  }
  const summary = concept.length > 40 ? `${concept.slice(0, 40).replace(/\s+\S*$/, "")}…` : concept;
  return [workflowName(project.type), summary, formatDateTime(project.created_at)].filter(Boolean).join(" · ");
}

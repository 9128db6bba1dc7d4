// A project's name, renamed in place: the name links to the job; "Rename" turns it into a field that
// saves on Enter or Save and gives up on Escape or Cancel. The rule (1–80 characters) is the schema's.
import { ProjectName } from "@adgen/schema";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { Link } from "wouter";
import { errorMessage } from "../../lib/errors.ts";
import { useTRPC } from "../../trpc.ts";
import type { Project } from "./types.ts";

export function ProjectNameEditor({ project, href }: { project: Project; href: string }) {
  const uid = useId();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(project.name);
  const [problem, setProblem] = useState<string | null>(null);
  const rename = useMutation(
    trpc.projects.rename.mutationOptions({
      onSuccess: (renamed) => {
        queryClient.setQueriesData({ queryKey: trpc.projects.list.queryKey() }, (old: Project[] | undefined) =>
          old?.map((p) => (p.id === renamed.id ? { ...p, name: renamed.name } : p)),
        );
        void queryClient.invalidateQueries({ queryKey: trpc.projects.list.queryKey() });
        setEditing(false);
      },
      onError: (error) => setProblem(errorMessage(error)),
    }),
  );

  function start() {
    setDraft(project.name);
    setProblem(null);
    setEditing(true);
  }

  function save(event: FormEvent) {
    event.preventDefault();
    const parsed = ProjectName.safeParse(draft);
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? "Check the name");
      return;
    }
    if (parsed.data === project.name) {
      setEditing(false);
      return;
    }
    rename.mutate({ id: project.id, name: parsed.data });
  }

  if (!editing) {
    return (
      <div className="project-name-row">
        <Link href={href} className="project-title" data-testid="project-name">
          {project.name}
        </Link>
        <button type="button" className="btn btn-link btn-small" onClick={start} data-testid="rename-project">
          Rename<span className="visually-hidden"> {project.name}</span>
        </button>
      </div>
    );
  }

  return (
    <form className="project-rename" onSubmit={save} data-testid="rename-form">
      <label htmlFor={`${uid}-name`} className="visually-hidden">
        Project name
      </label>
      <input
        id={`${uid}-name`}
        className="input input-small"
        value={draft}
        // biome-ignore lint/a11y/noAutofocus: the user just asked to rename; the field is where they type.
        autoFocus
        onChange={(e) => {
          setDraft(e.target.value);
          setProblem(null);
        }}
        onKeyDown={(e) => {
          if (e.key === "Escape") setEditing(false);
        }}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${uid}-error` : undefined}
        data-testid="rename-input"
      />
      <div className="project-rename-actions">
        <button type="submit" className="btn btn-primary btn-small" disabled={rename.isPending} data-testid="rename-save">
          Save
        </button>
        <button type="button" className="btn btn-ghost btn-small" onClick={() => setEditing(false)}>
          Cancel
        </button>
      </div>
      {problem ? (
        <p id={`${uid}-error`} className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
    </form>
  );
}

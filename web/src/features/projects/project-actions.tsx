// "Make another like this" and Delete. Another like this opens the studio prefilled from the project
// (`/studio?from=<id>`; nothing is charged until the user launches). Delete asks first, in the app, and
// says what goes; a project still being made cannot be deleted (the server answers 409), so the button
// says to cancel it first instead.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "wouter";
import { errorMessage } from "../../lib/errors.ts";
import { useTRPC } from "../../trpc.ts";
import { ConfirmDialog, KEEP_CONFIRM_TEST_IDS } from "../../ui/confirm-dialog.tsx";
import "../job/job.css";
import type { Project } from "./types.ts";

export function ProjectActions({ project }: { project: Project }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation(
    trpc.projects.delete.mutationOptions({
      onSuccess: () => {
        setConfirming(false);
        queryClient.setQueriesData({ queryKey: trpc.projects.list.queryKey() }, (old: Project[] | undefined) =>
          old?.filter((p) => p.id !== project.id),
        );
        void queryClient.invalidateQueries({ queryKey: trpc.projects.list.queryKey() });
      },
    }),
  );
  const running = project.status === "pending" || project.status === "processing";

  return (
    <div className="project-actions">
      <Link href={`/studio?from=${encodeURIComponent(project.id)}`} className="btn btn-ghost btn-small" data-testid="duplicate-project">
        Make another like this
      </Link>
      <button
        type="button"
        className="btn btn-link btn-small project-delete"
        onClick={() => {
          remove.reset();
          setConfirming(true);
        }}
        disabled={running}
        title={running ? "Still being made: cancel it on its page first, then delete it" : undefined}
        data-testid="delete-project"
      >
        Delete<span className="visually-hidden"> {project.name}</span>
      </button>
      <ConfirmDialog
        open={confirming}
        title={`Delete “${project.name}”?`}
        confirmLabel={remove.isPending ? "Deleting…" : "Delete project"}
        cancelLabel="Keep it"
        pending={remove.isPending}
        onConfirm={() => remove.mutate({ id: project.id })}
        onClose={() => setConfirming(false)}
        testId="delete-dialog"
        testIds={KEEP_CONFIRM_TEST_IDS}
      >
        <p>Its videos, pictures and downloads are deleted for good. The credits it used are not refunded.</p>
        {remove.isError ? (
          <p className="field-error" role="alert">
            {errorMessage(remove.error)}
          </p>
        ) : null}
      </ConfirmDialog>
    </div>
  );
}

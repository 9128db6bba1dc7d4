// What the form starts from, said above it: a project's settings copied or restored, or a prompt
// brought from the prompt builder.
import { useSearchParams } from "wouter";
import { FormSuccess } from "../../ui/form.tsx";

export function RestoredNotes({ retry }: { retry: { copy?: boolean } | null }) {
  const [params] = useSearchParams();
  if (retry) {
    return (
      <FormSuccess testId="retry-restored">
        {retry.copy
          ? "Every setting of that project is copied here. Change what you like, then launch a new one (nothing is charged until you launch)."
          : "Every setting of the run that stopped is back. Change what you like, then launch it again."}
      </FormSuccess>
    );
  }
  return (
    <>
      {params.get("picturePrompt") || params.get("clipPrompt") ? (
        <FormSuccess testId="prompt-restored">
          Your prompt from the prompt builder is the {params.get("picturePrompt") ? "picture" : "clip"} prompt (under Models), and its
          subject is the concept. Check them, then launch.
        </FormSuccess>
      ) : null}
      {params.get("direction") ? (
        <FormSuccess testId="prompt-restored">
          Your prompt from the prompt builder is in Direction notes (under Brief by part), and its subject is the concept. Check them, then
          launch.
        </FormSuccess>
      ) : null}
    </>
  );
}

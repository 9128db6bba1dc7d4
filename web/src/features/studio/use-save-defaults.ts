// "Save these settings as my defaults": the type, quality, formats, review and style choices become the
// studio's starting point.
import type { WorkflowRequestInput } from "@adgen/schema";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { sortFormats } from "../../lib/workflow.ts";
import { useTRPC } from "../../trpc.ts";
import type { FormState, Prefs } from "./form-state.ts";

export function useSaveDefaults(onSaved: (saved: boolean) => void) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const savePrefs = useMutation(
    trpc.workflow.savePrefs.mutationOptions({
      onSuccess: (data) => {
        queryClient.setQueryData(trpc.workflow.prefs.queryKey(), data);
        onSaved(true);
      },
    }),
  );

  function saveDefaults(state: FormState, request: WorkflowRequestInput) {
    onSaved(false);
    savePrefs.mutate({
      defaultType: state.type,
      quality: state.quality,
      formats: sortFormats(state.formats),
      hitl: state.hitl,
      ...(request.framework ? { framework: request.framework } : {}),
      ...(request.adPreset ? { adPreset: request.adPreset as NonNullable<Prefs["adPreset"]> } : {}),
    });
  }

  return { savePrefs, saveDefaults };
}

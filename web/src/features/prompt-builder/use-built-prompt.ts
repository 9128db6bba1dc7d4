// The prompt the form describes, built as the user types: checked here first, then, once typing settles
// for a moment, one `promptBuilder.build` call (free: no model runs). Its field messages join the local ones.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { errorCode, errorMessage, splitMessage } from "../../lib/errors.ts";
import { useDebounced } from "../../lib/hooks.ts";
import { useTRPCClient } from "../../trpc.ts";
import { FIELDS, type FormField, type FormState, localErrors, toRequest } from "./prompt-form.ts";

export function useBuiltPrompt(form: FormState, video: boolean) {
  const client = useTRPCClient();
  const request = useMemo(() => toRequest(form, video), [form, video]);
  const local = useMemo(() => localErrors(request), [request]);
  const debounced = useDebounced(request, 350);
  const ready = local.form === null && Object.keys(local.fields).length === 0;
  const debouncedReady = useMemo(() => localErrors(debounced), [debounced]);
  const canBuild = debouncedReady.form === null && Object.keys(debouncedReady.fields).length === 0;

  const built = useQuery({
    queryKey: ["promptBuilder.build", debounced],
    queryFn: () => client.promptBuilder.build.mutate(debounced as Parameters<typeof client.promptBuilder.build.mutate>[0]),
    enabled: canBuild,
    placeholderData: keepPreviousData,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

  const refused = built.isError && errorCode(built.error) === "BAD_REQUEST";
  const server = refused
    ? splitMessage<FormField>(errorMessage(built.error), FIELDS)
    : { fields: {} as Partial<Record<FormField, string>>, form: null as string | null };
  const subjectMissing = form.subject.trim() === "";
  return {
    errorFor: (field: FormField) => local.fields[field] ?? server.fields[field],
    formError: local.form ?? server.form,
    subjectMissing,
    result: canBuild && !subjectMissing ? built.data : undefined,
    fetching: built.isFetching || (ready && debounced !== request),
    error: built.isError && !refused ? built.error : null,
    invalid: !ready || refused,
    retry: () => void built.refetch(),
  };
}

// The admin user page's shared plumbing: after any action, the account's row and the users list are
// refreshed from the server, so every section shows the same, current account.
import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { type RouterOutputs, useTRPC } from "../../trpc.ts";

export type AdminUser = RouterOutputs["admin"]["user"];

export function useRefreshAdminUser(id: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useCallback(
    (updated?: AdminUser) => {
      if (updated) queryClient.setQueryData(trpc.admin.user.queryKey({ id }), updated);
      void queryClient.invalidateQueries({ queryKey: trpc.admin.user.queryKey({ id }) });
      void queryClient.invalidateQueries({ queryKey: trpc.admin.users.queryKey() });
    },
    [queryClient, trpc, id],
  );
}

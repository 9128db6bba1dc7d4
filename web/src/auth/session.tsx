// The session check behind every guard: `auth.currentSession` answers the signed-in account, or null
// when signed out. Being signed out is an ordinary answer (HTTP 200), so public pages log no failed request.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Redirect, useLocation } from "wouter";
import { ErrorPanel, PageLoader } from "../ui/status.tsx";
import { isUnauthorized } from "../lib/errors.ts";
import { type RouterOutputs, useTRPC } from "../trpc.ts";
import { loginReturningTo, returnPath } from "./return-path.ts";

export type Session = NonNullable<RouterOutputs["auth"]["currentSession"]>;

export function useSession() {
  const trpc = useTRPC();
  return useQuery(trpc.auth.currentSession.queryOptions(undefined, { retry: false, staleTime: 60_000 }));
}

/** The signed-in session, or null when signed out; undefined while unknown. */
export function useOptionalSession(): Session | null | undefined {
  const session = useSession();
  if (session.data !== undefined) return session.data;
  // Any failure (the network, a suspended account) is shown as signed out too (public pages only).
  if (session.isError) return null;
  return undefined;
}

interface GuardProps {
  children: (session: Session) => ReactNode;
  /** Only role admin may see the page; others get a 403 panel. */
  admin?: boolean;
}

const currentPath = () => `${window.location.pathname}${window.location.search}`;

/** Renders children for a signed-in visitor; sends everyone else to /login, which returns here afterwards. */
export function RequireSession({ children, admin = false }: GuardProps) {
  const session = useSession();
  // A stale answer while re-checking (just after login) is not an answer yet.
  const stale = (session.isError || session.data === null) && session.isFetching;
  if (session.isPending || stale) return <PageLoader label="Checking your session…" />;
  if (session.isError) {
    if (isUnauthorized(session.error)) return <Redirect to={loginReturningTo(currentPath())} replace />;
    return <ErrorPanel title="We could not check your session" error={session.error} onRetry={() => void session.refetch()} />;
  }
  if (session.data === null) return <Redirect to={loginReturningTo(currentPath())} replace />;
  if (admin && session.data.role !== "admin") {
    return <ErrorPanel title="Admin access required" message="This area is only available to administrators." code="403" />;
  }
  return <>{children(session.data)}</>;
}

/** Renders children for a signed-out visitor; sends a signed-in one on (to `?next=`, else /dashboard). */
export function GuestOnly({ children }: { children: ReactNode }) {
  const session = useSession();
  if (session.data) return <Redirect to={returnPath()} replace />;
  if (session.isPending) return <PageLoader label="Loading…" />;
  return <>{children}</>;
}

/**
 * After signup or login: refresh everything cached for the old (signed-out) state, then go back to the
 * page that sent the visitor to log in (`?next=`), else to the dashboard.
 */
export function useSignedIn() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return async () => {
    const to = returnPath();
    await queryClient.invalidateQueries();
    navigate(to, { replace: true });
  };
}

/** Log out: revoke the session on the server, forget every cached answer, go to /login. */
export function useLogout() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return useMutation(
    trpc.auth.logout.mutationOptions({
      // Even if the server call fails (session already gone) the visitor is signed out here.
      onSettled: () => {
        void queryClient.cancelQueries();
        queryClient.clear();
        navigate("/login", { replace: true });
      },
    }),
  );
}

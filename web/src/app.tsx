// Providers and the route switch. Signed-in routes share one persistent app shell so the header,
// its balance pill and the live balance stream survive navigation between areas.
import { QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { matchRoute, Route, Switch, useLocation, useRouter } from "wouter";
import { GuestOnly, RequireSession } from "./auth/session.tsx";
import { AppShell, AuthLayout, MarketingLayout } from "./features/shell/layout.tsx";
import { LiveBalanceProvider } from "./features/shell/live-balance.tsx";
import { ErrorPanel } from "./ui/status.tsx";
import { NotFoundPage } from "./features/shell/not-found-page.tsx";
import { type AppRoute, ROUTES } from "./routes.tsx";
import { makeQueryClient, makeTrpcClient, TRPCProvider } from "./trpc.ts";

type SignedInRoute = Extract<AppRoute, { access: "user" | "admin" }>;
const SIGNED_IN_ROUTES = ROUTES.filter((r): r is SignedInRoute => r.access === "user" || r.access === "admin");

function SignedInArea() {
  return (
    <RequireSession>
      {(session) => (
        <LiveBalanceProvider>
          <AppShell session={session}>
            <Switch>
              {SIGNED_IN_ROUTES.map((route) => (
                <Route key={route.path} path={route.path}>
                  {route.access === "admin" && session.role !== "admin" ? (
                    <ErrorPanel title="Admin access required" message="This area is only available to administrators." code="403" />
                  ) : (
                    <route.page session={session} />
                  )}
                </Route>
              ))}
            </Switch>
          </AppShell>
        </LiveBalanceProvider>
      )}
    </RequireSession>
  );
}

function Routes() {
  const [location] = useLocation();
  const { parser } = useRouter();
  const isSignedInPath = SIGNED_IN_ROUTES.some((route) => matchRoute(parser, route.path, location)[0]);
  return (
    <Switch>
      {ROUTES.map((route) => {
        if (route.access === "public") {
          return (
            <Route key={route.path} path={route.path}>
              <MarketingLayout>
                <route.page />
              </MarketingLayout>
            </Route>
          );
        }
        if (route.access === "guest") {
          return (
            <Route key={route.path} path={route.path}>
              <AuthLayout>
                <GuestOnly>
                  <route.page />
                </GuestOnly>
              </AuthLayout>
            </Route>
          );
        }
        return null;
      })}
      <Route>
        {isSignedInPath ? (
          <SignedInArea />
        ) : (
          <MarketingLayout>
            <NotFoundPage />
          </MarketingLayout>
        )}
      </Route>
    </Switch>
  );
}

export function App() {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(makeTrpcClient);
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        <Routes />
      </TRPCProvider>
    </QueryClientProvider>
  );
}

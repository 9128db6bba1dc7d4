import { useMutation } from "@tanstack/react-query";
import { Link } from "wouter";
import { useSignedIn } from "../../auth/session.tsx";
import { useTitle } from "../../lib/hooks.ts";
import { useTRPC } from "../../trpc.ts";
import { AuthForm } from "./auth-form.tsx";

export function LoginPage() {
  useTitle("Log in");
  const trpc = useTRPC();
  const signedIn = useSignedIn();
  const login = useMutation(trpc.auth.login.mutationOptions({ onSuccess: signedIn }));

  return (
    <div className="auth-card">
      <h1 className="auth-title">Welcome back</h1>
      <p className="auth-subtitle">Log in to your AdGen workspace.</p>
      <AuthForm mode="login" pending={login.isPending} onSubmit={(input) => login.mutateAsync(input)} />
      <p className="auth-switch">
        New to AdGen? <Link href="/signup">Create an account</Link>
      </p>
    </div>
  );
}

import { useMutation, useQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import { useSignedIn } from "../../auth/session.tsx";
import { useTitle } from "../../lib/hooks.ts";
import { useTRPC } from "../../trpc.ts";
import { AuthForm } from "./auth-form.tsx";

export function SignupPage() {
  useTitle("Create your account");
  const trpc = useTRPC();
  const signedIn = useSignedIn();
  const pricing = useQuery(trpc.public.pricing.queryOptions());
  const signup = useMutation(trpc.auth.signup.mutationOptions({ onSuccess: signedIn }));
  const trial = pricing.data?.trial;

  return (
    <div className="auth-card">
      <h1 className="auth-title">Create your account</h1>
      <p className="auth-subtitle">
        {trial
          ? `Start a ${trial.days}-day trial with ${trial.credits} free credits. No card needed.`
          : "Start a free trial. No card needed."}
      </p>
      <AuthForm mode="signup" pending={signup.isPending} onSubmit={(input) => signup.mutateAsync(input)} />
      <p className="auth-switch">
        Already have an account? <Link href="/login">Log in</Link>
      </p>
    </div>
  );
}

// The signup and login form: the shared AuthCredentials schema checks input before it is sent, and the
// server's messages land next to the field they name.
import { AuthCredentials, PASSWORD_MIN } from "@adgen/schema";
import { type FormEvent, useId, useState } from "react";
import { Link } from "wouter";
import { Field, fieldBinder, FormAlert } from "../../ui/form.tsx";
import { errorCode, issuesToFieldErrors, type SplitErrors, splitServerError } from "../../lib/errors.ts";

const FIELDS = ["email", "password"] as const;
type AuthField = (typeof FIELDS)[number];

interface AuthFormProps {
  mode: "signup" | "login";
  pending: boolean;
  onSubmit: (input: AuthCredentials) => Promise<unknown>;
}

const NO_ERRORS: SplitErrors<AuthField> = { fields: {}, form: null };

export function AuthForm({ mode, pending, onSubmit }: AuthFormProps) {
  const uid = useId();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [showPassword, setShowPassword] = useState(false);
  const [errors, setErrors] = useState<SplitErrors<AuthField>>(NO_ERRORS);
  const [conflict, setConflict] = useState(false);

  const isSignup = mode === "signup";

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setConflict(false);
    const parsed = AuthCredentials.safeParse({ email, password });
    if (!parsed.success) {
      setErrors(issuesToFieldErrors(parsed.error.issues, FIELDS));
      focusFirstError(event.currentTarget);
      return;
    }
    setErrors(NO_ERRORS);
    try {
      await onSubmit(parsed.data);
    } catch (error) {
      setErrors(splitServerError(error, FIELDS));
      setConflict(isSignup && errorCode(error) === "CONFLICT");
      if (!isSignup && errorCode(error) === "UNAUTHORIZED") setPassword("");
    }
  }

  function clearFieldError(field: AuthField) {
    if (errors.fields[field]) setErrors((prev) => ({ ...prev, fields: { ...prev.fields, [field]: undefined } }));
  }
  const bind = fieldBinder(errors.fields, clearFieldError);

  const emailId = `${uid}-email`;
  const passwordId = `${uid}-password`;

  return (
    <form className="form" noValidate onSubmit={handleSubmit} data-testid={isSignup ? "signup-form" : "login-form"} aria-busy={pending}>
      {errors.form ? (
        <FormAlert>
          {errors.form}
          {conflict ? (
            <>
              {" "}
              <Link href="/login">Log in instead</Link>
            </>
          ) : null}
        </FormAlert>
      ) : null}
      <Field
        id={emailId}
        label="Email"
        type="email"
        name="email"
        autoComplete="email"
        inputMode="email"
        autoCapitalize="none"
        spellCheck={false}
        required
        {...bind("email", email, setEmail)}
        testId="email"
        placeholder="you@company.com"
      />
      <Field
        id={passwordId}
        label="Password"
        type={showPassword ? "text" : "password"}
        name="password"
        autoComplete={isSignup ? "new-password" : "current-password"}
        required
        {...bind("password", password, setPassword)}
        testId="password"
        hint={isSignup ? `At least ${PASSWORD_MIN} characters.` : undefined}
        labelAside={
          <button
            type="button"
            className="btn-link btn-small"
            onClick={() => setShowPassword((v) => !v)}
            aria-controls={passwordId}
            aria-pressed={showPassword}
          >
            {showPassword ? "Hide" : "Show"}
          </button>
        }
      />
      <button type="submit" className="btn btn-primary btn-block" disabled={pending} data-testid="submit">
        {pending ? (isSignup ? "Signing up…" : "Logging in…") : isSignup ? "Create account" : "Log in"}
      </button>
    </form>
  );
}

function focusFirstError(form: HTMLFormElement) {
  // After React renders the messages.
  requestAnimationFrame(() => {
    const invalid = form.querySelector<HTMLInputElement>("[aria-invalid='true']");
    invalid?.focus();
  });
}

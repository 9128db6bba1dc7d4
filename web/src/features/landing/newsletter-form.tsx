// The landing page's newsletter sign-up: one address, answered in place.
import { NewsletterInput } from "@adgen/schema";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { errorMessage } from "../../lib/errors.ts";
import { useTRPC } from "../../trpc.ts";
import { FormAlert, FormSuccess } from "../../ui/form.tsx";
import "./landing.css";

export function NewsletterForm() {
  const uid = useId();
  const trpc = useTRPC();
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const subscribe = useMutation(trpc.public.newsletter.mutationOptions());

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (subscribe.isPending) return;
    setDone(null);
    const parsed = NewsletterInput.safeParse({ email });
    if (!parsed.success) {
      setError(email.trim() ? "Enter a valid e-mail address, like name@example.com." : "Enter your e-mail address.");
      return;
    }
    setError(null);
    try {
      const answer = await subscribe.mutateAsync(parsed.data);
      setEmail("");
      setDone(
        answer.alreadySubscribed ? `${answer.email} is already subscribed.` : `Subscribed. Watch ${answer.email} for the next issue.`,
      );
    } catch (e) {
      setError(errorMessage(e));
    }
  }

  return (
    <form className="newsletter-form" noValidate onSubmit={handleSubmit} data-testid="newsletter-form" aria-busy={subscribe.isPending}>
      <label htmlFor={`${uid}-email`} className="field-label">
        Ad ideas and product news, once a month
      </label>
      <div className="newsletter-row">
        <input
          id={`${uid}-email`}
          className="input"
          type="email"
          autoComplete="email"
          placeholder="you@company.com"
          value={email}
          aria-invalid={error ? true : undefined}
          onChange={(e) => {
            setEmail(e.target.value);
            setError(null);
            setDone(null);
          }}
          data-testid="newsletter-email"
        />
        <button type="submit" className="btn btn-primary" disabled={subscribe.isPending} data-testid="newsletter-submit">
          {subscribe.isPending ? "Subscribing…" : "Subscribe"}
        </button>
      </div>
      {error ? <FormAlert testId="newsletter-error">{error}</FormAlert> : null}
      {done ? <FormSuccess testId="newsletter-done">{done}</FormSuccess> : null}
    </form>
  );
}

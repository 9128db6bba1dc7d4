// The landing page's contact form: a message to the team, with errors by field and the answer in place.
import { ContactInput } from "@adgen/schema";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { errorMessage, issuesToFieldErrors, type SplitErrors, splitServerError } from "../../lib/errors.ts";
import { useTRPC } from "../../trpc.ts";
import { Field, fieldBinder, FormAlert, FormSuccess } from "../../ui/form.tsx";
import { TextArea } from "../../ui/text-area.tsx";
import "./landing.css";
import { FormActions } from "../../ui/form-actions.tsx";

const FIELDS = ["name", "email", "message"] as const;
type ContactField = (typeof FIELDS)[number];
const NO_ERRORS: SplitErrors<ContactField> = { fields: {}, form: null };
const MESSAGE_MAX = 2000;

/** Sentences for people, for what the shared schema finds wrong before anything is sent. */
const LOCAL_MESSAGES: Record<ContactField, string> = {
  name: "Keep your name under 200 characters.",
  email: "Enter the e-mail address we should answer, like name@example.com.",
  message: `Write a message (up to ${MESSAGE_MAX} characters).`,
};

export function ContactForm() {
  const trpc = useTRPC();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [message, setMessage] = useState("");
  const [errors, setErrors] = useState<SplitErrors<ContactField>>(NO_ERRORS);
  const [sent, setSent] = useState(false);
  const send = useMutation(trpc.public.contact.mutationOptions());

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (send.isPending) return;
    setSent(false);
    const parsed = ContactInput.safeParse({ email, message, ...(name.trim() ? { name } : {}) });
    if (!parsed.success) {
      const found = issuesToFieldErrors(parsed.error.issues, FIELDS);
      const fields = Object.fromEntries(Object.keys(found.fields).map((f) => [f, LOCAL_MESSAGES[f as ContactField]]));
      setErrors({ fields, form: found.form });
      return;
    }
    setErrors(NO_ERRORS);
    try {
      await send.mutateAsync(parsed.data);
      setMessage("");
      setSent(true);
    } catch (error) {
      const split = splitServerError(error, FIELDS);
      setErrors(split.form || Object.keys(split.fields).length ? split : { fields: {}, form: errorMessage(error) });
    }
  }

  function clear(field: ContactField) {
    setSent(false);
    if (errors.fields[field]) setErrors((prev) => ({ ...prev, fields: { ...prev.fields, [field]: undefined } }));
  }
  const bind = fieldBinder(errors.fields, clear);

  return (
    <form className="form contact-form" noValidate onSubmit={handleSubmit} data-testid="contact-form" aria-busy={send.isPending}>
      {sent ? (
        <FormSuccess testId="contact-sent">
          Thanks, your message is with the team. We answer at {email} within two working days.
        </FormSuccess>
      ) : null}
      {errors.form ? <FormAlert testId="contact-error">{errors.form}</FormAlert> : null}
      <Field label="Name (optional)" autoComplete="name" maxLength={200} {...bind("name", name, setName)} testId="contact-name" />
      <Field label="E-mail" type="email" autoComplete="email" {...bind("email", email, setEmail)} testId="contact-email" />
      <TextArea
        label="Message"
        rows={5}
        maxLength={MESSAGE_MAX}
        {...bind("message", message, setMessage)}
        errorTestId="field-error-contact-message"
        testId="contact-message"
      />
      <FormActions label="Send message" busyLabel="Sending…" busy={send.isPending} testId="contact-submit" />
    </form>
  );
}

// The notice form (DSA Art. 16): what is reported, why, who reports it, and the good-faith statement.
// On success it shows the reference the reporter quotes back.
import { ANONYMOUS_CATEGORIES, MODERATION_CATEGORIES, type ModerationCategory, ModerationReportInput } from "@adgen/schema";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { Field, FieldError, FormAlert, FormSuccess } from "../../ui/form.tsx";
import { issuesToFieldErrors, type SplitErrors, splitServerError } from "../../lib/errors.ts";
import { useTRPC } from "../../trpc.ts";
import { CATEGORY_LABELS } from "./labels.ts";
import { Select } from "../../ui/select.tsx";
import { TextArea } from "../../ui/text-area.tsx";
import { Toggle } from "../../ui/toggle.tsx";
import { FormActions } from "../../ui/form-actions.tsx";

const FIELDS = ["target", "category", "explanation", "reporterName", "reporterEmail", "goodFaith"] as const;
type NoticeField = (typeof FIELDS)[number];
const NO_ERRORS: SplitErrors<NoticeField> = { fields: {}, form: null };

export function ReportForm({ initialTarget, defaultEmail }: { initialTarget: string; defaultEmail: string }) {
  const uid = useId();
  const notice = useNotice(initialTarget, defaultEmail);

  if (notice.reference) {
    return (
      <FormSuccess testId="report-submitted">
        Thank you. Your notice was received with reference <strong data-testid="report-reference">{notice.reference}</strong>. We review
        every notice and will e-mail you the decision{notice.reporterEmail.trim() ? ` at ${notice.reporterEmail.trim()}` : ""}.
      </FormSuccess>
    );
  }

  const clear = (field: NoticeField) => {
    if (notice.errors.fields[field]) notice.setErrors((prev) => ({ ...prev, fields: { ...prev.fields, [field]: undefined } }));
  };

  return (
    <form className="form" noValidate onSubmit={notice.handleSubmit} aria-busy={notice.report.isPending} data-testid="report-form">
      {notice.errors.form ? <FormAlert>{notice.errors.form}</FormAlert> : null}
      <Field
        label="What are you reporting?"
        value={notice.target}
        onChange={(e) => {
          notice.setTarget(e.target.value);
          clear("target");
        }}
        error={notice.errors.fields.target}
        hint="A project id, or the address of a video or picture made here (…/api/media/…)."
        testId="report-target"
      />
      <Select
        id={`${uid}-category`}
        label="Why is it illegal or against the terms?"
        value={notice.category}
        onChange={(value) => {
          notice.setCategory(value as ModerationCategory);
          clear("category");
        }}
        error={notice.errors.fields.category}
        testId="report-category"
      >
        <option value="">Choose a reason…</option>
        {MODERATION_CATEGORIES.map((value) => (
          <option key={value} value={value}>
            {CATEGORY_LABELS[value]}
          </option>
        ))}
      </Select>
      <TextArea
        id={`${uid}-explanation`}
        label="Explain what is wrong with it"
        rows={5}
        maxLength={2000}
        value={notice.explanation}
        onChange={(value) => {
          notice.setExplanation(value);
          clear("explanation");
        }}
        error={notice.errors.fields.explanation}
        testId="report-explanation"
      />
      <Field
        label={notice.anonymousAllowed ? "Your name (optional for this reason)" : "Your name"}
        autoComplete="name"
        value={notice.reporterName}
        onChange={(e) => {
          notice.setReporterName(e.target.value);
          clear("reporterName");
        }}
        error={notice.errors.fields.reporterName}
        testId="report-name"
      />
      <Field
        label={notice.anonymousAllowed ? "Your e-mail (optional for this reason)" : "Your e-mail"}
        type="email"
        autoComplete="email"
        value={notice.reporterEmail}
        onChange={(e) => {
          notice.setReporterEmail(e.target.value);
          clear("reporterEmail");
        }}
        error={notice.errors.fields.reporterEmail}
        hint="We send the decision here."
        testId="report-email"
      />
      <GoodFaithToggle
        uid={uid}
        goodFaith={notice.goodFaith}
        setGoodFaith={notice.setGoodFaith}
        clear={clear}
        error={notice.errors.fields.goodFaith}
      />
      <FormActions label="Send notice" busyLabel="Sending notice…" busy={notice.report.isPending} testId="report-submit" />
    </form>
  );
}

/** The reporter's statement that the notice is accurate and complete, which the notice needs. */
function GoodFaithToggle({
  uid,
  goodFaith,
  setGoodFaith,
  clear,
  error,
}: {
  uid: string;
  goodFaith: boolean;
  setGoodFaith: (value: boolean) => void;
  clear: (field: NoticeField) => void;
  error: string | undefined;
}) {
  return (
    <>
      <Toggle
        id={`${uid}-good-faith`}
        label="I believe in good faith that the information in this notice is accurate and complete."
        checked={goodFaith}
        onChange={(on) => {
          setGoodFaith(on);
          clear("goodFaith");
        }}
        testId="report-good-faith"
      />
      <FieldError error={error} />
    </>
  );
}

/** The notice being written, checked with the shared schema, and its receipt once sent. */
function useNotice(initialTarget: string, defaultEmail: string) {
  const trpc = useTRPC();
  const report = useMutation(trpc.moderation.report.mutationOptions());
  const [target, setTarget] = useState(initialTarget);
  const [category, setCategory] = useState<ModerationCategory | "">("");
  const [explanation, setExplanation] = useState("");
  const [reporterName, setReporterName] = useState("");
  const [reporterEmail, setReporterEmail] = useState(defaultEmail);
  const [goodFaith, setGoodFaith] = useState(false);
  const [errors, setErrors] = useState(NO_ERRORS);
  const [reference, setReference] = useState<string | null>(null);
  const anonymousAllowed = category !== "" && ANONYMOUS_CATEGORIES.includes(category);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (report.isPending) return;
    const input = {
      target,
      category,
      explanation,
      goodFaith,
      ...(reporterName.trim() ? { reporterName } : {}),
      ...(reporterEmail.trim() ? { reporterEmail } : {}),
    };
    const parsed = ModerationReportInput.safeParse(input);
    if (!parsed.success) {
      setErrors(issuesToFieldErrors(parsed.error.issues, FIELDS));
      return;
    }
    setErrors(NO_ERRORS);
    try {
      const receipt = await report.mutateAsync(parsed.data);
      setReference(receipt.reference);
    } catch (error) {
      setErrors(splitServerError(error, FIELDS));
    }
  }

  return {
    report,
    target,
    setTarget,
    category,
    setCategory,
    explanation,
    setExplanation,
    reporterName,
    setReporterName,
    reporterEmail,
    setReporterEmail,
    goodFaith,
    setGoodFaith,
    errors,
    setErrors,
    reference,
    anonymousAllowed,
    handleSubmit,
  };
}

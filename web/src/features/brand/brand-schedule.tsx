// The publishing schedule: which platforms, on which weekdays, at what times, in which time zone, how
// often. Checked with the schema the server uses; each refusal shows under its field.
import { BrandScheduleInput, SCHEDULE_FREQUENCIES, SCHEDULE_PLATFORMS, WEEKDAYS } from "@adgen/schema";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useMemo, useState } from "react";
import { issuesToFieldErrors, type SplitErrors, splitServerError } from "../../lib/errors.ts";
import { useTRPC } from "../../trpc.ts";
import { FieldError, FormAlert, FormSuccess } from "../../ui/form.tsx";
import { InlineError, Skeleton } from "../../ui/status.tsx";
import "./brand.css";
import { Select } from "../../ui/select.tsx";
import { SettingsCard } from "../../ui/settings-card.tsx";
import { FormActions } from "../../ui/form-actions.tsx";

const FIELDS = ["platforms", "weekdays", "times", "timezone", "frequency"] as const;
type ScheduleField = (typeof FIELDS)[number];
const NO_ERRORS: SplitErrors<ScheduleField> = { fields: {}, form: null };
const PLATFORM_NAMES: Record<string, string> = {
  tiktok: "TikTok",
  instagram: "Instagram",
  youtube: "YouTube",
  facebook: "Facebook",
  linkedin: "LinkedIn",
  x: "X",
  pinterest: "Pinterest",
};

function timeZones(): string[] {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: string) => string[] };
  const zones = intl.supportedValuesOf?.("timeZone") ?? [];
  return zones.includes("UTC") ? zones : ["UTC", ...zones];
}

export function BrandScheduleSection() {
  const trpc = useTRPC();
  const schedule = useQuery(trpc.brand.schedule.queryOptions());
  return (
    <SettingsCard title="Publishing schedule" testId="brand-schedule" intro="Where and when ads launched with “publish” go out.">
      {schedule.isError ? (
        <InlineError error={schedule.error} onRetry={() => void schedule.refetch()} />
      ) : schedule.isPending ? (
        <Skeleton height="160px" />
      ) : (
        // Not keyed on the saved schedule: saving keeps the form (and its "saved" message) as it is.
        <ScheduleForm saved={schedule.data} />
      )}
    </SettingsCard>
  );
}

type Saved = { platforms: string[]; weekdays: string[]; times: string[]; timezone: string; frequency: string } | null;

function ScheduleForm({ saved }: { saved: Saved }) {
  const uid = useId();
  const zones = useMemo(timeZones, []);
  const draft = useScheduleDraft(saved);

  return (
    <form className="form brand-schedule-form" noValidate onSubmit={draft.handleSubmit} data-testid="schedule-form">
      {draft.done ? <FormSuccess testId="schedule-saved">Schedule saved.</FormSuccess> : null}
      {draft.errors.form ? <FormAlert testId="schedule-error">{draft.errors.form}</FormAlert> : null}
      <ChipChecks
        legend="Platforms"
        options={SCHEDULE_PLATFORMS}
        label={(p) => PLATFORM_NAMES[p] ?? p}
        selected={draft.platforms}
        onToggle={(p) => draft.toggle(draft.platforms, draft.setPlatforms, p)}
        testId="schedule-platform"
        error={draft.errors.fields.platforms}
        errorTestId="field-error-platforms"
      />
      <ChipChecks
        legend="Days"
        options={WEEKDAYS}
        label={(d) => d.charAt(0).toUpperCase() + d.slice(1)}
        selected={draft.weekdays}
        onToggle={(d) => draft.toggle(draft.weekdays, draft.setWeekdays, d)}
        testId="schedule-day"
        error={draft.errors.fields.weekdays}
        errorTestId="field-error-weekdays"
      />
      <div className="field">
        <label htmlFor={`${uid}-times`} className="field-label">
          Times
        </label>
        <input
          id={`${uid}-times`}
          className="input"
          value={draft.times}
          onChange={(e) => {
            draft.setTimes(e.target.value);
            draft.touched();
          }}
          placeholder="09:30, 18:00"
          data-testid="schedule-times"
        />
        {draft.errors.fields.times ? (
          <FieldError error={draft.errors.fields.times} testId="field-error-times" />
        ) : (
          <p className="field-hint">24-hour times, separated by commas.</p>
        )}
      </div>
      <div className="brand-form-grid">
        <Select
          id={`${uid}-zone`}
          label="Time zone"
          value={draft.timezone}
          onChange={(v) => {
            draft.setTimezone(v);
            draft.touched();
          }}
          testId="schedule-timezone"
          error={draft.errors.fields.timezone}
          errorTestId="field-error-timezone"
        >
          {(zones.includes(draft.timezone) ? zones : [draft.timezone, ...zones]).map((z) => (
            <option key={z} value={z}>
              {z}
            </option>
          ))}
        </Select>
        <Select
          id={`${uid}-frequency`}
          label="How often"
          value={draft.frequency}
          onChange={(v) => {
            draft.setFrequency(v);
            draft.touched();
          }}
          testId="schedule-frequency"
          error={draft.errors.fields.frequency}
          errorTestId="field-error-frequency"
        >
          {SCHEDULE_FREQUENCIES.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </Select>
      </div>
      <FormActions label="Save schedule" busyLabel="Saving…" busy={draft.save.isPending} testId="schedule-save" />
    </form>
  );
}

interface ChipChecksProps {
  legend: string;
  options: readonly string[];
  label: (option: string) => string;
  selected: readonly string[];
  onToggle: (option: string) => void;
  /** The stem of each box's test id: `<stem>-<option>`. */
  testId: string;
  error: string | undefined;
  errorTestId: string;
}

/** A group of options to tick, shown as chips, with its error beneath. */
function ChipChecks({ legend, options, label, selected, onToggle, testId, error, errorTestId }: ChipChecksProps) {
  return (
    <fieldset className="brand-kit-group">
      <legend className="field-label">{legend}</legend>
      <div className="chip-row">
        {options.map((option) => (
          <label key={option} className="chip-check">
            <input
              type="checkbox"
              checked={selected.includes(option)}
              onChange={() => onToggle(option)}
              data-testid={`${testId}-${option}`}
            />
            {label(option)}
          </label>
        ))}
      </div>
      <FieldError error={error} testId={errorTestId} />
    </fieldset>
  );
}

/** The schedule being edited, checked with the shared schema, and saving it. */
function useScheduleDraft(saved: Saved) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [platforms, setPlatforms] = useState<string[]>(saved?.platforms ?? []);
  const [weekdays, setWeekdays] = useState<string[]>(saved?.weekdays ?? []);
  const [times, setTimes] = useState(saved?.times.join(", ") ?? "09:00");
  const [timezone, setTimezone] = useState(saved?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? "UTC");
  const [frequency, setFrequency] = useState(saved?.frequency ?? "weekly");
  const [errors, setErrors] = useState(NO_ERRORS);
  const [done, setDone] = useState(false);
  const save = useMutation(
    trpc.brand.saveSchedule.mutationOptions({ onSuccess: (data) => queryClient.setQueryData(trpc.brand.schedule.queryKey(), data) }),
  );
  const touched = () => {
    setDone(false);
    setErrors(NO_ERRORS);
  };
  const toggle = (list: string[], set: (v: string[]) => void, value: string) => {
    set(list.includes(value) ? list.filter((v) => v !== value) : [...list, value]);
    touched();
  };

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    const draft = {
      platforms,
      weekdays,
      times: times
        .split(/[,\s]+/)
        .map((t) => t.trim())
        .filter(Boolean),
      timezone,
      frequency,
    };
    const parsed = BrandScheduleInput.safeParse(draft);
    if (!parsed.success) {
      setErrors(issuesToFieldErrors(parsed.error.issues, FIELDS));
      return;
    }
    try {
      await save.mutateAsync(draft as BrandScheduleInput);
      setDone(true);
    } catch (error) {
      setErrors(splitServerError(error, FIELDS));
    }
  }

  return {
    platforms,
    setPlatforms,
    weekdays,
    setWeekdays,
    times,
    setTimes,
    timezone,
    setTimezone,
    frequency,
    setFrequency,
    errors,
    done,
    save,
    touched,
    toggle,
    handleSubmit,
  };
}

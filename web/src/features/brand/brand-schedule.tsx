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
  const uid = useId();
  const trpc = useTRPC();
  const schedule = useQuery(trpc.brand.schedule.queryOptions());
  return (
    <section className="card settings-card" aria-labelledby={`${uid}-title`} data-testid="brand-schedule">
      <div className="settings-card-intro">
        <h2 id={`${uid}-title`} className="card-title">
          Publishing schedule
        </h2>
        <p className="muted">Where and when ads launched with “publish” go out.</p>
      </div>
      {schedule.isError ? (
        <InlineError error={schedule.error} onRetry={() => void schedule.refetch()} />
      ) : schedule.isPending ? (
        <Skeleton height="160px" />
      ) : (
        // Not keyed on the saved schedule: saving keeps the form (and its "saved" message) as it is.
        <ScheduleForm saved={schedule.data} />
      )}
    </section>
  );
}

type Saved = { platforms: string[]; weekdays: string[]; times: string[]; timezone: string; frequency: string } | null;

function ScheduleForm({ saved }: { saved: Saved }) {
  const uid = useId();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const zones = useMemo(timeZones, []);
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

  return (
    <form className="form brand-schedule-form" noValidate onSubmit={handleSubmit} data-testid="schedule-form">
      {done ? <FormSuccess testId="schedule-saved">Schedule saved.</FormSuccess> : null}
      {errors.form ? <FormAlert testId="schedule-error">{errors.form}</FormAlert> : null}
      <fieldset className="brand-kit-group">
        <legend className="field-label">Platforms</legend>
        <div className="chip-row">
          {SCHEDULE_PLATFORMS.map((p) => (
            <label key={p} className="chip-check">
              <input
                type="checkbox"
                checked={platforms.includes(p)}
                onChange={() => toggle(platforms, setPlatforms, p)}
                data-testid={`schedule-platform-${p}`}
              />
              {PLATFORM_NAMES[p] ?? p}
            </label>
          ))}
        </div>
        <FieldError error={errors.fields.platforms} testId="field-error-platforms" />
      </fieldset>
      <fieldset className="brand-kit-group">
        <legend className="field-label">Days</legend>
        <div className="chip-row">
          {WEEKDAYS.map((d) => (
            <label key={d} className="chip-check">
              <input
                type="checkbox"
                checked={weekdays.includes(d)}
                onChange={() => toggle(weekdays, setWeekdays, d)}
                data-testid={`schedule-day-${d}`}
              />
              {d.charAt(0).toUpperCase() + d.slice(1)}
            </label>
          ))}
        </div>
        <FieldError error={errors.fields.weekdays} testId="field-error-weekdays" />
      </fieldset>
      <div className="field">
        <label htmlFor={`${uid}-times`} className="field-label">
          Times
        </label>
        <input
          id={`${uid}-times`}
          className="input"
          value={times}
          onChange={(e) => {
            setTimes(e.target.value);
            touched();
          }}
          placeholder="09:30, 18:00"
          data-testid="schedule-times"
        />
        {errors.fields.times ? (
          <FieldError error={errors.fields.times} testId="field-error-times" />
        ) : (
          <p className="field-hint">24-hour times, separated by commas.</p>
        )}
      </div>
      <div className="brand-form-grid">
        <div className="field">
          <label htmlFor={`${uid}-zone`} className="field-label">
            Time zone
          </label>
          <select
            id={`${uid}-zone`}
            className="input select"
            value={timezone}
            onChange={(e) => {
              setTimezone(e.target.value);
              touched();
            }}
            data-testid="schedule-timezone"
          >
            {(zones.includes(timezone) ? zones : [timezone, ...zones]).map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </select>
          <FieldError error={errors.fields.timezone} testId="field-error-timezone" />
        </div>
        <div className="field">
          <label htmlFor={`${uid}-frequency`} className="field-label">
            How often
          </label>
          <select
            id={`${uid}-frequency`}
            className="input select"
            value={frequency}
            onChange={(e) => {
              setFrequency(e.target.value);
              touched();
            }}
            data-testid="schedule-frequency"
          >
            {SCHEDULE_FREQUENCIES.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
          <FieldError error={errors.fields.frequency} testId="field-error-frequency" />
        </div>
      </div>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={save.isPending} data-testid="schedule-save">
          {save.isPending ? "Saving…" : "Save schedule"}
        </button>
      </div>
    </form>
  );
}

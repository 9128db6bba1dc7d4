// The period of a report: the last 7, 30 or 90 days (the server counts whole UTC days up to today).
export const PERIODS = [7, 30, 90] as const;
export type PeriodDays = (typeof PERIODS)[number];

export function periodInput(days: PeriodDays): { from: string; to: string } {
  const to = new Date();
  const from = new Date(to.getTime() - (days - 1) * 86_400_000);
  return { from: from.toISOString().slice(0, 10), to: to.toISOString().slice(0, 10) };
}

export function PeriodPicker({ value, onChange }: { value: PeriodDays; onChange(days: PeriodDays): void }) {
  return (
    <fieldset className="admin-segmented">
      <legend className="visually-hidden">Period</legend>
      {PERIODS.map((days) => (
        <button
          key={days}
          type="button"
          className={days === value ? "btn btn-small btn-primary" : "btn btn-small btn-ghost"}
          aria-pressed={days === value}
          onClick={() => onChange(days)}
          data-testid={`period-${days}`}
        >
          {days} days
        </button>
      ))}
    </fieldset>
  );
}

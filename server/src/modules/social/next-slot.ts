// The schedule's next publishing slot after `now`: the first of its weekdays and times, read in its IANA
// time zone (so 09:30 in Europe/Paris is 09:30 there, summer or winter), within the next two weeks.
const WEEKDAY_INDEX: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };

/** The zone's offset from UTC at `instant`, in minutes (Paris in summer: 120). */
function offsetMinutes(zone: string, instant: Date): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    })
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  const asUtc = Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!);
  return Math.round((asUtc - Math.floor(instant.getTime() / 60_000) * 60_000) / 60_000);
}

/** The UTC instant of local `date` (y, m, d) at `hh:mm` in `zone`. */
function zonedInstant(zone: string, y: number, m: number, d: number, hh: number, mm: number): Date {
  const guess = Date.UTC(y, m, d, hh, mm);
  const first = guess - offsetMinutes(zone, new Date(guess)) * 60_000;
  // Near a clock change the offset at the guess and at the answer differ; one more step settles it.
  return new Date(guess - offsetMinutes(zone, new Date(first)) * 60_000);
}

export function nextSlot(schedule: { weekdays: readonly string[]; times: readonly string[]; timezone: string }, now: Date): Date | null {
  const days = new Set(schedule.weekdays.map((w) => WEEKDAY_INDEX[w]));
  const local = new Date(now.getTime() + offsetMinutes(schedule.timezone, now) * 60_000);
  for (let ahead = 0; ahead < 15; ahead++) {
    const day = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + ahead));
    if (!days.has(day.getUTCDay())) continue;
    for (const time of [...schedule.times].sort()) {
      const [hh, mm] = time.split(":").map(Number) as [number, number];
      const at = zonedInstant(schedule.timezone, day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), hh, mm);
      if (at.getTime() > now.getTime()) return at;
    }
  }
  return null;
}

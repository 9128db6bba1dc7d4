// The account's publishing schedule (GET/POST /api/user/brand/schedule): where and when `publish`
// launches go out. Every field is checked with a message that says what to send instead.
import { z } from "zod";
import { IsoDateTime } from "./common.ts";

export const SCHEDULE_PLATFORMS = ["tiktok", "instagram", "youtube", "facebook", "linkedin", "x", "pinterest"] as const;
export const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export const SCHEDULE_FREQUENCIES = ["daily", "weekly", "biweekly", "monthly"] as const;

/** Whether `zone` is an IANA time zone this runtime knows ("Europe/Paris", "UTC"). */
export function isTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const listOf = <T extends readonly [string, ...string[]]>(field: string, values: T, max: number) =>
  z
    .array(z.enum(values, { error: `${field} must each be one of ${values.join(", ")}` }), {
      error: `${field} must be a list, like ["${values[0]}"]`,
    })
    .min(1, { error: `${field} needs at least one of ${values.join(", ")}` })
    .max(max)
    .transform((list) => [...new Set(list)]);

export const BrandScheduleInput = z
  .object({
    platforms: listOf("platforms", SCHEDULE_PLATFORMS, SCHEDULE_PLATFORMS.length),
    weekdays: listOf("weekdays", WEEKDAYS, WEEKDAYS.length),
    times: z
      .array(
        z.string({ error: "times must be 24-hour times like 09:30" }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, {
          error: "times must be 24-hour times written HH:MM, like 09:30 or 18:00",
        }),
        { error: 'times must be a list, like ["09:30"]' },
      )
      .min(1, { error: "times needs at least one time, like 09:30" })
      .max(24, { error: "times may hold at most 24 times" })
      .transform((list) => [...new Set(list)].sort()),
    timezone: z
      .string({ error: "timezone must be an IANA time zone like Europe/Paris" })
      .trim()
      .refine(isTimeZone, { error: "timezone must be an IANA time zone like Europe/Paris, America/New_York or UTC" }),
    frequency: z.enum(SCHEDULE_FREQUENCIES, { error: `frequency must be one of ${SCHEDULE_FREQUENCIES.join(", ")}` }),
  })
  .meta({ title: "BrandScheduleInput" });
export type BrandScheduleInput = z.infer<typeof BrandScheduleInput>;

export const BrandSchedule = z
  .object({
    platforms: z.array(z.string()),
    weekdays: z.array(z.string()),
    times: z.array(z.string()),
    timezone: z.string(),
    frequency: z.string(),
    updatedAt: IsoDateTime,
  })
  .meta({ title: "BrandSchedule" });
export type BrandSchedule = z.infer<typeof BrandSchedule>;

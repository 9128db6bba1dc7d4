// The arguments every list of the graph takes beside paging: a date range and an order.
import type { Builder } from "../builder.ts";

export type Order = "NEWEST_FIRST" | "OLDEST_FIRST";

export function addListArguments(builder: Builder) {
  const order = builder.enumType("ListOrder", {
    description: "The order of a list, by when each row was made.",
    values: {
      NEWEST_FIRST: { value: "NEWEST_FIRST", description: "Newest first (the default)." },
      OLDEST_FIRST: { value: "OLDEST_FIRST", description: "Oldest first." },
    },
  });
  const dateRange = builder.inputType("DateRange", {
    description: "Rows made within a range of instants (ISO 8601); either end may be left open.",
    fields: (t) => ({
      from: t.string({ description: "From this instant, included.", required: false }),
      to: t.string({ description: "Until this instant, excluded.", required: false }),
    }),
  });
  return { order, dateRange };
}

export type ListArguments = ReturnType<typeof addListArguments>;

/** A Prisma `where` on a date column for a `DateRange` argument. */
export function within(given: unknown) {
  const range = given as { from?: string | null; to?: string | null } | null | undefined;
  if (!range) return undefined;
  const when: { gte?: Date; lt?: Date } = {};
  if (range.from) when.gte = new Date(range.from);
  if (range.to) when.lt = new Date(range.to);
  return when;
}

export const direction = (order: Order | null | undefined) => (order === "OLDEST_FIRST" ? "asc" : "desc");

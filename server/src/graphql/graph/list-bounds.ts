// The partner graph's plain lists, each with its bound (docs/graphql-partners.md lists them; every other
// list is a connection). A list a partner cannot page must not grow without end: past its bound it is cut,
// and its description says so.
import { MAX_BRANDS_PER_ACCOUNT } from "@adgen/schema";

export const LIST_BOUNDS = {
  /** Weeks × groups; a partner narrows `days` for more. */
  performanceByWeek: 1000,
  /** Weeks × workflow types; a partner narrows `createdWithin` for more. */
  creditsByWeek: 1000,
  /** One per brand. */
  loopActions: MAX_BRANDS_PER_ACCOUNT,
  /** A project's files: each rendered format and variant, captions, voice-over. */
  projectAssets: 100,
  /** Days, oldest first (a year and a day). */
  dailySeries: 366,
  /** A project's charge and, if it failed, its refund. */
  projectLedgerEntries: 10,
} as const;

/** The first `bound` rows of each parent's list. */
export const bounded =
  (bound: number) =>
  <T>(lists: T[][]): T[][] =>
    lists.map((rows) => rows.slice(0, bound));

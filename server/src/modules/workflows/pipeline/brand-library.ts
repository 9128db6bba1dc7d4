// The brand media library is the account's, but its product photos and footage show the account's own
// products: a launch with no brand profile (NO_BRAND) is an ad for the page's advertiser, so it shows none of
// them, only a presenter (a person who consented to front the account's ads, not a product), and none of the
// knowledge base, whose facts are the account's own products'.
import { NO_BRAND, type WorkflowRequest } from "@adgen/schema";

/** The library items a job may show. */
export function libraryForJob<T extends { role?: string }>(request: Pick<WorkflowRequest, "brand">, library: T[]): T[] {
  if (request.brand !== NO_BRAND) return library;
  return library.filter((item) => item.role === "presenter");
}

/** Whether the job may draw on the account's knowledge base. */
export const usesAccountKnowledge = (request: Pick<WorkflowRequest, "brand">) => request.brand !== NO_BRAND;

// The run-time half of "never charge for a page we did not read": a type made from the page itself
// (Inspiration, Brand Clone, Local Audit) whose page the worker cannot read fails at once and is refunded
// in full (PermanentJobError → failAndRefund), with the words the launch would have answered.
import type { WorkflowRequest } from "@adgen/schema";
import { needsReadablePage, unreadablePageMessage } from "../launch/preview-page.ts";
import { PermanentJobError } from "./job-errors.ts";
import type { PageFacts } from "./step-types.ts";

/** Throws the job's failure when the page it is made from gave nothing; any other type goes on with a warning. */
export function assertPageRead(page: Pick<PageFacts, "url" | "title" | "description" | "images" | "warnings">, request: WorkflowRequest) {
  if (!needsReadablePage(request.type)) return;
  const message = unreadablePageMessage(page, request.type);
  if (message) throw new PermanentJobError(message);
}

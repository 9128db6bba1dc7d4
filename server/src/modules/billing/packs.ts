// The credit packs on sale (CONTRACT "Credit packs"), with the CreditPack fields.
import { CREDIT_PACKS, type CreditPack, concurrentJobsFor } from "@adgen/schema";

export function listPacks(): CreditPack[] {
  return CREDIT_PACKS.map((pack) => ({ ...pack, concurrentJobs: concurrentJobsFor(pack.id) }));
}

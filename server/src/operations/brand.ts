// brand.*: the account's brand profile, which art direction reads.
import { BrandProfile, BrandProfileInput } from "@adgen/schema";
import { getBrandProfile, saveBrandProfile } from "../modules/brand/brand-profile.ts";
import { defineOperation, NoInput } from "./operation.ts";

export const brandOperations = {
  get: defineOperation({
    summary: "Your brand profile (both field sets), or null",
    access: "user",
    kind: "query",
    input: NoInput,
    output: BrandProfile.nullable(),
    rest: { method: "GET", path: "/user/brand", tag: "Brand" },
    handler: (ctx) => getBrandProfile(ctx),
  }),
  save: defineOperation({
    summary: "Save your brand profile (either field set); answers it with its id, which the workflow field `brand` takes",
    access: "user",
    kind: "mutation",
    input: BrandProfileInput,
    output: BrandProfile,
    rest: { method: "POST", path: "/user/brand", tag: "Brand" },
    handler: (ctx, input) => saveBrandProfile(ctx, input),
  }),
};

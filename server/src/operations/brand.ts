// brand.*: the account's brand profile, which art direction reads.
import { BrandProfile, BrandProfileInput } from "@adgen/schema";
import { z } from "zod";
import { getBrandProfile, saveBrandProfile } from "../modules/brand/brand-profile.ts";
import { defineOperation } from "./operation.ts";

export const brandOperations = {
  get: defineOperation({
    summary: "Your brand profile (both field sets), or null",
    access: "user",
    kind: "query",
    input: z.object({}),
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

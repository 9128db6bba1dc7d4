// Several brands per account (an agency runs many). Each brand is one SPEC 2.4 profile with both field
// sets; one of them is the account's default, which GET/POST /api/user/brand read and write and which a
// job uses when it names no `brand`.
import { z } from "zod";
import { BrandProfile, BrandProfileInput } from "./workflow.ts";

const brandId = z.string({ error: "id must be a brand id" }).trim().min(1, { error: "id must be a brand id" }).max(100);

export const BrandId = z.object({ id: brandId });
export type BrandId = z.infer<typeof BrandId>;

/** The most brands one account may keep. */
export const MAX_BRANDS_PER_ACCOUNT = 50;

export const BrandCreate = BrandProfileInput.extend({
  /** Make the new brand the account's default (the first brand always is). */
  makeDefault: z.boolean({ error: "makeDefault must be true or false" }).optional(),
}).meta({ title: "BrandCreate" });
export type BrandCreate = z.infer<typeof BrandCreate>;

export const BrandUpdate = BrandProfileInput.extend({
  id: brandId,
  makeDefault: z.literal(true, { error: "makeDefault can only be true (make another brand the default to change it)" }).optional(),
}).meta({ title: "BrandUpdate" });
export type BrandUpdate = z.infer<typeof BrandUpdate>;

/** A brand as listed: its profile (both field sets, with `id`) and whether it is the default. */
export const Brand = BrandProfile.extend({ isDefault: z.boolean() }).meta({ title: "Brand" });
export type Brand = z.infer<typeof Brand>;

export const BrandDeleted = z
  .object({ id: z.string(), deleted: z.literal(true), defaultBrandId: z.string().nullable() })
  .meta({ title: "BrandDeleted" });
export type BrandDeleted = z.infer<typeof BrandDeleted>;

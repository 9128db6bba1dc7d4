// Social accounts a finished ad can be published to (`publish: true`), and what became of a publication.
// A Facebook Page is connected with its id and a Page access token; the token is checked with the Graph
// API before it is kept, and never answered back.
import { z } from "zod";
import { IsoDateTime } from "./common.ts";

export const SOCIAL_PLATFORMS = ["facebook"] as const;

export const SocialAccountInput = z.object({
  platform: z.enum(SOCIAL_PLATFORMS, { error: "Choose the platform to connect: facebook" }).default("facebook"),
  pageId: z
    .string({ error: "Give the Facebook Page's id (the number in the Page's About section)" })
    .trim()
    .regex(/^\d{5,32}$/, { error: "The Facebook Page id is a number, like 104829384756123" }),
  accessToken: z
    .string({ error: "Give a Page access token for that Page" })
    .trim()
    .min(20, { error: "That does not look like a Page access token: it is too short" })
    .max(1000, { error: "That does not look like a Page access token: it is too long" }),
});
export type SocialAccountInput = z.input<typeof SocialAccountInput>;

export const SocialAccount = z
  .object({ id: z.string(), platform: z.string(), pageId: z.string(), pageName: z.string(), connectedAt: IsoDateTime })
  .meta({ title: "SocialAccount" });
export type SocialAccount = z.infer<typeof SocialAccount>;

export const SocialAccountIdInput = z.object({ id: z.string({ error: "Name the connected account by its id" }).min(1) });

/** Where a `publish: true` ad went: scheduled for the schedule's next slot, then posted or failed. */
export const Publication = z
  .object({
    platform: z.string(),
    pageName: z.string(),
    status: z.enum(["scheduled", "posted", "failed"]),
    scheduledFor: IsoDateTime,
    postedAt: IsoDateTime.nullable(),
    postId: z.string().nullable(),
    reason: z.string().nullable(),
  })
  .meta({ title: "Publication" });
export type Publication = z.infer<typeof Publication>;

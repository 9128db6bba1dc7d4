// What the studio can read from a page before anything is charged: the title, images and colours an ad
// would use, or a plain statement that it could read nothing.
import { z } from "zod";
import { webAddress } from "./common.ts";

export const PagePreviewQuery = z.object({
  url: webAddress("The page address"),
});

export const PagePreview = z
  .object({
    /** The page after redirects. */
    url: z.string(),
    /** False when nothing could be read: the ad is then made from the concept and brand alone. */
    readable: z.boolean(),
    title: z.string().nullable(),
    description: z.string().nullable(),
    siteName: z.string().nullable(),
    /** Pictures the page offers (og:image first). */
    images: z.array(z.string()),
    /** `#rrggbb`, most prominent first. */
    colors: z.array(z.string()),
    /** Why something could not be read, in words. */
    warnings: z.array(z.string()),
  })
  .meta({ title: "PagePreview" });
export type PagePreview = z.infer<typeof PagePreview>;

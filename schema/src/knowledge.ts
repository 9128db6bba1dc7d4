// The knowledge base (SPEC 2.5): documents and web pages an account adds so its ads can say what only
// they know. The limits are stated once here: the server enforces them and the SPA shows them.
import { z } from "zod";
import { IsoDateTime, webAddress } from "./common.ts";
import { UploadedFile } from "./brand-media.ts";

export const KNOWLEDGE_LIMITS = {
  /** Largest file accepted (refused while it streams in). */
  maxFileBytes: 50 * 1024 * 1024,
  /** Files per account. */
  maxFiles: 9,
  /** Web pages per account. */
  maxUrls: 10,
} as const;

/** The document kinds accepted, judged by content and name, with the endings a picker offers. */
export const KNOWLEDGE_FILE_TYPES = {
  pdf: { mime: "application/pdf", extensions: [".pdf"] },
  docx: { mime: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", extensions: [".docx"] },
  xlsx: { mime: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", extensions: [".xlsx"] },
  csv: { mime: "text/csv", extensions: [".csv"] },
  txt: { mime: "text/plain", extensions: [".txt", ".text", ".md"] },
} as const;
export type KnowledgeFileKind = keyof typeof KNOWLEDGE_FILE_TYPES;
export const KNOWLEDGE_EXTENSIONS = Object.values(KNOWLEDGE_FILE_TYPES).flatMap((t) => t.extensions);

export const KNOWLEDGE_STATUSES = ["extracting", "ready", "error"] as const;
export type KnowledgeStatus = (typeof KNOWLEDGE_STATUSES)[number];

export const KnowledgeUpload = z.object({ file: UploadedFile });
export type KnowledgeUpload = z.infer<typeof KnowledgeUpload>;

/** One page (`url`) or several (`urls`) at once. */
export const KnowledgeUrlsInput = z
  .object({
    url: webAddress("url").optional(),
    urls: z
      .array(webAddress("Each of urls"), { error: "urls must be a list of web addresses" })
      .max(KNOWLEDGE_LIMITS.maxUrls, { error: `urls may hold at most ${KNOWLEDGE_LIMITS.maxUrls} addresses` })
      .optional(),
  })
  .refine((input) => !!input.url || (input.urls?.length ?? 0) > 0, {
    error: "url is required: send the page's address as url (or a list as urls)",
    path: ["url"],
  });
export type KnowledgeUrlsInput = z.infer<typeof KnowledgeUrlsInput>;

export const KnowledgeId = z.object({
  id: z.string({ error: "id must be a knowledge item id" }).trim().min(1, { error: "id must be a knowledge item id" }).max(100),
});

const itemFields = {
  id: z.string(),
  type: z.enum(["file", "url"]),
  name: z.string(),
  status: z.enum(KNOWLEDGE_STATUSES),
  mimeType: z.string(),
  size: z.number().int(),
  /** A note on a usable item, e.g. a scanned PDF that holds no text. */
  warning: z.string().nullable(),
  /** Why extraction failed, when `status` is error. */
  error: z.string().nullable(),
  /** The page, for a url item. */
  sourceUrl: z.string().nullable(),
  /** Characters of text extracted so far (0 while extracting). */
  textLength: z.number().int(),
  /**
   * While the item waits for its extraction to start: how many files (of any account) will be read
   * before it. Null once it is being read, and when it is ready or failed.
   */
  filesAhead: z.number().int().min(0).nullable(),
  created_at: IsoDateTime,
};

/** An item as listed: without its text (GET …/{id} has it). */
export const KnowledgeItem = z.object(itemFields).meta({ title: "KnowledgeItem" });
export type KnowledgeItem = z.infer<typeof KnowledgeItem>;

export const KnowledgeItemWithText = z.object({ ...itemFields, extractedText: z.string() }).meta({ title: "KnowledgeItemWithText" });
export type KnowledgeItemWithText = z.infer<typeof KnowledgeItemWithText>;

export const KnowledgeDeleted = z.object({ id: z.string(), deleted: z.literal(true) }).meta({ title: "KnowledgeDeleted" });
export type KnowledgeDeleted = z.infer<typeof KnowledgeDeleted>;

// What an extraction answers: the text (with a note for the user), or a failure the user can act on.

export interface Extracted {
  text: string;
  /** A note for the user on a usable result (a scanned PDF with no text layer, a document read in part). */
  warning?: string;
}

/** A failure the user can act on; its message is shown as the item's `error`. */
export class ExtractionError extends Error {}

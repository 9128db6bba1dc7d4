// Words for people: moderation categories and actions as the SPA shows them.
import type { ModerationAction, ModerationCategory } from "@adgen/schema";

export const CATEGORY_LABELS: Record<ModerationCategory, string> = {
  illegal_hate_speech: "Illegal hate speech",
  violence_or_terrorism: "Violence or terrorist content",
  child_sexual_abuse: "Child sexual abuse material",
  intellectual_property: "Copyright or trademark infringement",
  privacy_or_personal_data: "Privacy or personal data",
  fraud_or_scam: "Fraud or scam",
  misleading_advertising: "Misleading advertising",
  terms_violation: "Breaks the terms of service",
  other_illegal: "Other illegal content",
};

export const ACTION_LABELS: Record<ModerationAction, string> = {
  remove: "Removed",
  restrict: "Restricted",
  dismiss: "No action",
};

export const ACTION_EXPLAINED: Record<ModerationAction, string> = {
  remove: "This project's media were taken offline.",
  restrict: "This project is restricted: it can no longer be published to a social platform (its media stay with you).",
  dismiss: "A report about this project was reviewed and no action was taken.",
};

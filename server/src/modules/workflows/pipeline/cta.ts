// The call to action the ad's viewer would take, from what the product is: a clinic or a salon is booked,
// a meal ordered, software tried, a subscription started, a thing shopped. A local-audit ad is an ad for
// the business's customers, so it asks them to book or visit, never to audit (the audit's report and its
// PDF are for the owner, not for the viewer).

/** What a viewer does with the product, by the words its brief, profile and page use (first match wins). */
const KINDS: { pattern: RegExp; cta: (product: string, text: string) => string }[] = [
  // An app is downloaded, even one that teaches lessons.
  { pattern: /\b(app store|google play|ios and android|iphone and android|download (it|the app|free))\b/i, cta: () => "Download the app" },
  { pattern: /\bfree quote\b/i, cta: () => "Get your free quote" },
  { pattern: /\bfree (\d+[- ]minute )?consultation\b/i, cta: () => "Book your free consultation" },
  { pattern: /\b(recipe box(es)?|meal kits?)\b/i, cta: () => "Order your first box" },
  { pattern: /\b(restaurant|osteria|bistro|trattoria|brasserie|menu|wine list|book a table|dining)\b/i, cta: () => "Book a table" },
  { pattern: /\b(hotel|hostel|guesthouse|b&b|resort|cabin|retreat|getaway)\b/i, cta: () => "Book your stay" },
  {
    pattern:
      /\b(clinic|physio\w*|dentist|dental|orthodont\w*|salon|spa|barber\w*|massage|therap\w*|chiropract\w*|appointments?|consultations?|osteopath\w*|optician|veterinar\w*|grooming|tutor\w*|(?:driving|swimming|music|piano|guitar|golf|tennis|private) lessons?|plumb\w*|electrician|mechanic|garage|repair shop|repair service|cleaning service)\b/i,
    cta: () => "Book your appointment",
  },
  { pattern: /\b(wedding|photograph\w*|videograph\w*|event venue)\b/i, cta: () => "Check your date" },
  { pattern: /\b(car wash|valet\w*|detailing)\b/i, cta: () => "Book your wash" },
  { pattern: /\b(classes|class pass|yoga|pilates|spin class|bootcamp|climbing gym|dance school)\b/i, cta: () => "Book your first class" },
  {
    pattern: /\b(takeaway|take-away|pizza|burgers?|meals delivered|food delivery|catering|bakery|sushi)\b/i,
    cta: () => "Order now",
  },
  {
    pattern: /\b(app|software|saas|platform|dashboard|invoic\w*|crm|plugin|extension|api|tool for teams)\b/i,
    cta: (product, text) =>
      /\bfree trial\b/i.test(text) ? "Start your free trial" : product.length <= 20 ? `Try ${product}` : "Try it today",
  },
  {
    pattern:
      /\b(subscription|subscribe|every month|monthly box|delivered monthly|(shipped|delivered|arrives?) every (week|two weeks|month))\b/i,
    cta: () => "Start your subscription",
  },
];

export interface CtaContext {
  type: string;
  product: string;
  /** The brief, the brand profile and the page, as one text. */
  text: string;
  /** The product page's host ("shop.example"), when there is one. */
  host: string | null;
}

/** The call to action for the ad's viewer. */
export function callToAction({ type, product, text, host }: CtaContext): string {
  const kind = KINDS.find(({ pattern }) => pattern.test(text));
  if (kind) return kind.cta(product, text);
  // A local business with no service words: its customers come by.
  if (type === "local-audit") return host ? `Visit ${host}` : "Visit us today";
  // A thing with a price, shipping or returns is bought.
  if (/\bshipping\b|\breturns\b|\bin stock\b|\b\d+\s?(ml|oz|kg|g)\b|\b(bottle|pack|size|colou?rs?)\b/i.test(text)) return "Shop now";
  if (host) return `Visit ${host}`;
  if (type === "avatar") return "Learn more";
  return "Shop now";
}

/** Verbs a call to action opens with. */
const CTA_VERB =
  /^(book|start|try|order|shop|get (?:a|an|your|yours|started|in touch|the|\d+%)\b|call|download|join|claim|visit|sign up|subscribe|reserve|grab|test[- ]ride|schedule|request|apply|register|enrol|enroll|buy|switch|pre-order|preorder)\b/i;
/** Longest call to action taken from the brief (it is a button). */
const CTA_MAX = 34;

/**
 * The call to action the brief itself writes ("Book a free home survey.", "Try 7 days free."): an
 * imperative sentence short enough for a button, said to the ad's viewer (a local-audit ad never asks them
 * to audit). Null when the brief writes none.
 */
export function ctaFromLines(lines: readonly string[], type: string): string | null {
  for (const line of lines) {
    const text = line.trim().replace(/[.!]+$/, "");
    if (!CTA_VERB.test(text) || text.length > CTA_MAX || /[,;?]/.test(text)) continue;
    if (type === "local-audit" && /\baudit|report\b/i.test(text)) continue;
    return text;
  }
  return null;
}

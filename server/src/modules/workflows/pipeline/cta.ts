// The call to action the ad's viewer would take, from what the product is: a clinic or a salon is booked,
// a meal ordered, software tried, a subscription started, a thing shopped. A local-audit ad is an ad for
// the business's customers, so it asks them to book or visit, never to audit (the audit's report and its
// PDF are for the owner, not for the viewer).

/** What a viewer does with the product, by the words its brief, profile and page use (first match wins). */
const KINDS: { pattern: RegExp; cta: (product: string, text: string) => string }[] = [
  { pattern: /\b(recipe box(es)?|meal kits?)\b/i, cta: () => "Order your first box" },
  { pattern: /\b(restaurant|osteria|bistro|trattoria|brasserie|menu|wine list|book a table|dining)\b/i, cta: () => "Book a table" },
  { pattern: /\b(hotel|hostel|guesthouse|b&b|resort|cabin|retreat|getaway)\b/i, cta: () => "Book your stay" },
  {
    pattern:
      /\b(clinic|physio\w*|dentist|dental|orthodont\w*|salon|spa|barber\w*|massage|therap\w*|chiropract\w*|appointments?|consultations?|osteopath\w*|optician|veterinar\w*|grooming|tutor\w*|lessons?|plumb\w*|electrician|mechanic|garage|repair shop|repair service|cleaning service)\b/i,
    cta: () => "Book your appointment",
  },
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
  if (host) return `Visit ${host}`;
  if (type === "avatar") return "Learn more";
  return "Shop now";
}

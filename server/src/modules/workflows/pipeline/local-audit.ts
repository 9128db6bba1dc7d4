// The local audit: how ready a local business's landing page is for paid traffic. Five criteria, each
// scored 0–100 from what the page reader found (page-signals.ts), with findings and the one change that
// would help most; the overall score is their weighted mean. Pure and deterministic: a retried job scores
// the same page the same way.
import type { AuditCriterion, AuditCriterionId, AuditReport } from "@adgen/schema";
import type { PageSignals } from "../../net/page-signals.ts";
import { unreadablePageMessage } from "../launch/preview-page.ts";
import { PermanentJobError } from "./job-errors.ts";

export interface AuditedPage {
  url: string;
  title: string | null;
  description: string | null;
  warnings: string[];
  signals?: PageSignals | null;
}

const WEIGHTS: Record<AuditCriterionId, number> = {
  offer_clarity: 25,
  mobile_cta: 25,
  contact_details: 20,
  trust_signals: 15,
  landing_speed: 15,
};

const NAMES: Record<AuditCriterionId, string> = {
  offer_clarity: "Offer clarity",
  mobile_cta: "Call to action on mobile",
  contact_details: "Contact details",
  trust_signals: "Trust signals",
  landing_speed: "Landing speed",
};

/** Scores a criterion from checks: each check that passes adds its points; the first failing check with advice is the recommendation. */
interface Check {
  points: number;
  pass: boolean;
  found: string;
  missing: string;
  advice?: string;
}

function criterion(id: AuditCriterionId, checks: Check[], fallback: string): AuditCriterion {
  const score = checks.reduce((sum, c) => sum + (c.pass ? c.points : 0), 0);
  const findings = checks.map((c) => (c.pass ? c.found : c.missing)).filter(Boolean);
  // The missing check worth the most points is the change that helps most.
  const worst = checks.filter((c) => !c.pass && c.advice).sort((a, b) => b.points - a.points)[0];
  return {
    id,
    name: NAMES[id],
    score: Math.max(0, Math.min(100, Math.round(score))),
    weight: WEIGHTS[id],
    findings,
    recommendation: worst?.advice ?? fallback,
  };
}

const quote = (s: string) => `“${s}”`;
const words = (s: string | null) => (s ? s.split(/\s+/).filter(Boolean).length : 0);

function offerClarity(page: AuditedPage, s: PageSignals): AuditCriterion {
  const h1Words = words(s.h1);
  return criterion(
    "offer_clarity",
    [
      {
        points: 25,
        pass: !!s.h1,
        found: `Main headline: ${quote(s.h1 ?? "")}`,
        missing: "No main headline (h1): visitors from an ad cannot see at once what is offered",
        advice:
          "Add one clear headline (h1) at the top that says what you offer and where, e.g. “Emergency plumbing in Springfield, same day”.",
      },
      {
        points: 10,
        pass: h1Words > 0 && h1Words <= 12,
        found: "The headline is short enough to read at a glance",
        missing: h1Words > 12 ? `The headline is long (${h1Words} words); ads work best with 12 words or fewer` : "",
        advice: "Shorten the main headline to 12 words or fewer.",
      },
      {
        points: 30,
        pass: s.offerTerms.length > 0,
        found: `Concrete offer terms: ${s.offerTerms.slice(0, 4).join(", ")}`,
        missing: "No concrete offer (price, discount, free estimate, same-day service) in the headline area",
        advice:
          "State a concrete offer near the headline: a price, a discount or a free estimate, so the page matches what the ad promises.",
      },
      {
        points: 15,
        pass: !!page.title,
        found: `Page title: ${quote(page.title ?? "")}`,
        missing: "The page has no title",
        advice: "Give the page a title naming the service and the town.",
      },
      {
        points: 10,
        pass: !!page.description,
        found: "The page has a meta description",
        missing: "No meta description (search and link previews show random text)",
        advice: "Add a meta description that sums up the offer in one sentence.",
      },
      {
        points: 10,
        pass: s.h2.length > 0,
        found: `Supporting headings: ${s.h2.slice(0, 3).map(quote).join(", ")}`,
        missing: "No supporting headings (h2) explaining the services",
        advice: "Add short section headings for your main services.",
      },
    ],
    "Keep the offer in the headline consistent with the ads you run.",
  );
}

function mobileCta(s: PageSignals): AuditCriterion {
  const actionable = s.telLinks.length > 0 || s.ctas.some((c) => /book|call|quote|order|schedule|reserve|contact/i.test(c));
  return criterion(
    "mobile_cta",
    [
      {
        points: 30,
        pass: s.mobileViewport,
        found: `Mobile viewport set (${s.viewport})`,
        missing: s.viewport
          ? `The viewport (${s.viewport}) does not follow the phone's width`
          : "No mobile viewport meta tag: phones show a shrunken desktop page",
        advice: 'Add <meta name="viewport" content="width=device-width, initial-scale=1"> so the page fits phones.',
      },
      {
        points: 35,
        pass: s.ctas.length > 0,
        found: `Calls to action: ${s.ctas.slice(0, 4).map(quote).join(", ")}`,
        missing: "No call-to-action button or link (book, call, get a quote)",
        advice: "Add a prominent call-to-action button such as “Call now” or “Book online”.",
      },
      {
        points: 20,
        pass: s.ctas.length > 0 && s.ctaAboveFold,
        found: "A call to action is visible in the first screen",
        missing: s.ctas.length > 0 ? "The call to action only appears further down the page" : "",
        advice: "Move the main call to action into the first screen, above the first section.",
      },
      {
        points: 15,
        pass: actionable,
        found: "The call to action leads straight to a call, booking or quote",
        missing: "No tap-to-call or booking action for mobile visitors",
        advice: "Make the main call to action a tap-to-call (tel:) link or a booking link for mobile visitors.",
      },
    ],
    "Keep the call to action visible while scrolling on phones (a sticky button).",
  );
}

function contactDetails(s: PageSignals): AuditCriterion {
  const tel = s.telLinks.length > 0;
  const writtenPhone = s.phoneNumbers.length > 0;
  return criterion(
    "contact_details",
    [
      {
        points: 40,
        pass: tel,
        found: `Tap-to-call phone number: ${s.telLinks.slice(0, 2).join(", ")}`,
        missing: writtenPhone
          ? `A phone number is written (${s.phoneNumbers[0]}) but is not a tap-to-call link`
          : "No phone number: visitors cannot call the business",
        advice: writtenPhone
          ? "Add your phone number as a tap-to-call link (tel:) so mobile visitors can call in one tap."
          : "Add a phone number as a tap-to-call link (tel:) at the top of the page, so visitors from your ads can call in one tap.",
      },
      {
        points: 10,
        pass: !tel && writtenPhone,
        found: "A phone number is at least written on the page",
        missing: "",
      },
      {
        points: 30,
        pass: !!s.address,
        found: `Address: ${s.address}`,
        missing: "No street address: local customers cannot tell where you are",
        advice: "Show your street address (and the area you serve) so local customers know you are nearby.",
      },
      {
        points: 15,
        pass: s.emails.length > 0,
        found: `E-mail: ${s.emails.slice(0, 2).join(", ")}`,
        missing: "No e-mail address",
        advice: "Add an e-mail address or a contact form link.",
      },
      {
        points: 15,
        pass: s.openingHours,
        found: "Opening hours are stated",
        missing: "No opening hours",
        advice: "State your opening hours so visitors know when to call.",
      },
    ],
    "Repeat the phone number in the page footer.",
  );
}

function trustSignals(s: PageSignals): AuditCriterion {
  const has = (label: string) => s.trust.includes(label);
  return criterion(
    "trust_signals",
    [
      {
        points: 30,
        pass: has("customer reviews"),
        found: "Customer reviews or testimonials are shown",
        missing: "No customer reviews or testimonials",
        advice: "Show three or four recent customer reviews or testimonials near the call to action.",
      },
      {
        points: 15,
        pass: has("star rating"),
        found: "A star rating is shown",
        missing: "No star rating",
        advice: "Show your average star rating (e.g. from Google reviews).",
      },
      {
        points: 15,
        pass: has("licensed, insured or certified") || has("awards or memberships"),
        found: "Credentials are shown (licences, insurance, certifications or awards)",
        missing: "No credentials (licensed, insured, certified, awards)",
        advice: "Mention licences, insurance, certifications or awards.",
      },
      {
        points: 10,
        pass: has("guarantee"),
        found: "A guarantee or warranty is offered",
        missing: "No guarantee or warranty",
        advice: "Offer a clear guarantee (e.g. satisfaction guaranteed) to lower the risk of calling.",
      },
      {
        points: 10,
        pass: has("years in business"),
        found: "Years in business are stated",
        missing: "No years in business",
        advice: "Say how long you have served the area.",
      },
      {
        points: 20,
        pass: s.https,
        found: "The page is served over HTTPS",
        missing: "The page is not served over HTTPS: browsers mark it “Not secure”",
        advice: "Serve the page over HTTPS; browsers warn visitors about pages without it.",
      },
    ],
    "Keep reviews fresh: link to your review profile.",
  );
}

function landingSpeed(s: PageSignals): AuditCriterion {
  const kb = Math.round(s.htmlBytes / 1024);
  const requests = s.resources.scripts + s.resources.stylesheets + s.resources.images + s.resources.iframes;
  const seconds = (s.fetchMs / 1000).toFixed(2);
  return criterion(
    "landing_speed",
    [
      {
        points: 40,
        pass: s.fetchMs <= 1000,
        found: `The page arrived in ${seconds} s`,
        missing: `The page took ${seconds} s to arrive; ad visitors leave after about 3 s`,
        advice: "Speed up the server response (caching, a CDN, a faster host): the page should arrive within a second.",
      },
      {
        points: 15,
        pass: s.fetchMs <= 3000,
        found: "",
        missing: "",
      },
      {
        points: 20,
        pass: s.htmlBytes <= 150 * 1024,
        found: `The HTML is light (${kb} KB)`,
        missing: `The HTML is heavy (${kb} KB)`,
        advice: "Trim the HTML (inline data, unused markup) to under 150 KB.",
      },
      {
        points: 15,
        pass: s.resources.scripts <= 8,
        found: `${s.resources.scripts} external scripts`,
        missing: `${s.resources.scripts} external scripts slow the first screen`,
        advice: "Remove or defer third-party scripts that the landing page does not need.",
      },
      {
        points: 10,
        pass: requests <= 40,
        found: `${requests} resources to load (scripts, styles, images, frames)`,
        missing: `${requests} resources to load (scripts, styles, images, frames)`,
        advice: "Load fewer resources: lazy-load images below the first screen and combine style sheets.",
      },
    ],
    "Compress and lazy-load images to keep the page fast on mobile data.",
  );
}

function gradeOf(score: number): string {
  if (score >= 90) return "A";
  if (score >= 75) return "B";
  if (score >= 60) return "C";
  if (score >= 40) return "D";
  return "F";
}

/**
 * The scored audit of a page (without the PDF's URL, which the report step adds). A page that was not
 * loaded is not graded: the job fails and is refunded (read_page already stops it; this is the last word).
 */
export function auditPage(page: AuditedPage, at: Date = new Date()): AuditReport {
  const s = page.signals;
  if (!s) {
    const why = unreadablePageMessage({ images: [], ...page, title: null, description: null }, "local-audit");
    throw new PermanentJobError(why ?? `We could not read ${page.url}, so it was not audited.`);
  }
  const criteria = [offerClarity(page, s), mobileCta(s), contactDetails(s), trustSignals(s), landingSpeed(s)];
  const total = criteria.reduce((sum, c) => sum + c.weight, 0);
  const overallScore = Math.round(criteria.reduce((sum, c) => sum + c.score * c.weight, 0) / total);
  return {
    url: page.url,
    auditedAt: at.toISOString(),
    overallScore,
    grade: gradeOf(overallScore),
    pageLoaded: true,
    criteria,
    reportUrl: null,
  };
}

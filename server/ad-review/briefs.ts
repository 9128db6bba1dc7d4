// The fixed brief set `pnpm ad-review` renders: different products and industries, every type, both
// tiers, with and without product photos, knowledge, presets, frameworks and a structured brief. Each brief
// is written the way a customer writes one: copy mixed with camera notes, tone words and a quoted tagline,
// so that what reaches the screen shows whether the studio read it as a brief.

/** A product picture drawn by the review itself (products.ts), so every photo is ours to publish. */
export type ProductShape = "bottle" | "box" | "tube" | "pouch" | "jar" | "can";

export interface ReviewBrand {
  brandName: string;
  brandColors: string;
  industry: string;
  productDescription: string;
  targetAudience?: string;
  brandVoice?: string;
}

export interface ReviewSite {
  /** An address under `.example`: served to the studio at the network edge, never fetched for real. */
  url: string;
  title: string;
  /** The page's main copy, one paragraph each. */
  paragraphs: string[];
}

export interface ReviewBrief {
  id: string;
  /** What this brief is here to show. */
  why: string;
  brand: ReviewBrand;
  /** Product photos uploaded to the brand's media library first (none: the studio draws its own). */
  photos?: { shape: ProductShape; label: string; color: string }[];
  /** A knowledge file of facts uploaded first (TXT). */
  knowledge?: string;
  /** A page the job reads (clone, factory, brand, local audit). */
  site?: ReviewSite;
  /** Improve the project another brief made (ad-optimizer): that brief's id. */
  improves?: string;
  /** The launch body (POST /api/workflow), less `url` and `project`, which the review fills in. */
  launch: Record<string, unknown>;
  /** A line the ad must show word for word, if the brief quotes one. */
  tagline?: string;
}

const glacier: ReviewBrand = {
  brandName: "Glacier Bottle Co.",
  brandColors: "#0f3b5f, #7fc8f8, #f4f9ff",
  industry: "Outdoor gear",
  productDescription: "Insulated 18/8 stainless steel water bottles that keep drinks cold for 24 hours.",
  targetAudience: "hikers and cyclists",
  brandVoice: "Plain, confident, outdoorsy",
};
const glacierFacts =
  "Ships in 24 hours from our Denver warehouse.\n30-day free returns, no questions asked.\nRated 4.8 stars from 2,314 reviews.\nKeeps water cold for 24 hours and hot for 12.\nMade from 18/8 food-grade stainless steel.\n";
const glacierConcept =
  'Ice-cold water at the top of the climb. Slow push-ins on the condensation on the steel, then the view from the top. Calm, confident, a little epic. "Cold at the summit."';

export const BRIEFS: ReviewBrief[] = [
  {
    id: "cinematic-standard",
    why: "Director, standard: direction and tone sentences must stay off screen; the tagline must appear verbatim",
    brand: glacier,
    photos: [{ shape: "bottle", label: "GLACIER", color: "#0f3b5f" }],
    knowledge: glacierFacts,
    launch: { type: "cinematic", concept: glacierConcept, adPreset: "luxury", formats: ["9:16"] },
    tagline: "Cold at the summit.",
  },
  {
    id: "cinematic-premium",
    why: "The same brief at premium: it must look visibly better than the standard one",
    brand: glacier,
    photos: [{ shape: "bottle", label: "GLACIER", color: "#0f3b5f" }],
    knowledge: glacierFacts,
    launch: { type: "cinematic", concept: glacierConcept, adPreset: "luxury", quality: "premium", formats: ["9:16"] },
    tagline: "Cold at the summit.",
  },
  {
    id: "presenter-skincare",
    why: "Presenter with no presenter photo: the layout has no talking slot and never a silhouette",
    brand: {
      brandName: "Dewline",
      brandColors: "#f6d6d0, #8c3b4a, #fffaf7",
      industry: "Skincare",
      productDescription: "A fragrance-free hyaluronic serum for dry, sensitive skin.",
      targetAudience: "people with sensitive skin",
    },
    photos: [{ shape: "tube", label: "DEWLINE", color: "#8c3b4a" }],
    launch: {
      type: "avatar",
      concept:
        'Does your skin feel tight by noon? Dewline holds moisture for 72 hours without a trace of fragrance. A dermatologist talks to camera in a bright bathroom. Warm and reassuring. "Skin that stays soft."',
      framework: "pas",
      formats: ["9:16"],
    },
    tagline: "Skin that stays soft.",
  },
  {
    id: "influencer-electrolytes",
    why: "Influencer: handheld framing and word-by-word captions, no stage directions read aloud",
    brand: {
      brandName: "Ridge Salt",
      brandColors: "#ff6b35, #1b1b1e, #fdf0d5",
      industry: "Sports nutrition",
      productDescription: "Electrolyte tablets with 500 mg of sodium and no sugar.",
      targetAudience: "endurance cyclists",
    },
    photos: [{ shape: "tube", label: "RIDGE SALT", color: "#ff6b35" }],
    launch: {
      type: "influencer",
      concept:
        "A cyclist films a selfie review after a 60 km ride. No more cramps on the last climb. 500 mg of sodium, zero sugar, one tablet per bottle. Casual, honest, a bit funny.",
      adPreset: "playful",
      formats: ["9:16"],
    },
  },
  {
    id: "painpoint-earplugs",
    why: "Pain Point with PAS: a problem in muted colour, an agitation, then the solution in brand colour",
    brand: {
      brandName: "Quietloop",
      brandColors: "#2d3a8c, #a3b1ff, #f5f6ff",
      industry: "Sleep",
      productDescription: "Soft silicone earplugs that cut 24 dB of noise and stay comfortable all night.",
    },
    photos: [{ shape: "box", label: "QUIETLOOP", color: "#2d3a8c" }],
    knowledge: "Cuts noise by 24 dB.\nOver 40,000 light sleepers use Quietloop.\nFree shipping over $25.\n",
    launch: {
      type: "painpoint",
      concept:
        'Woken again by your neighbour\'s 2 a.m. music? Quietloop cuts 24 dB of noise and you forget you wear them. Open on a dark bedroom, then morning light. "Sleep through anything."',
      framework: "pas",
      formats: ["9:16"],
    },
    tagline: "Sleep through anything.",
  },
  {
    id: "static-bank-ramadan",
    why: "Static ad, premium, with a seasonal greeting: the greeting is a line of its own, never a prefix",
    brand: {
      brandName: "Harbor Savings",
      brandColors: "#004e64, #25a18e, #f0f7f4",
      industry: "Personal finance",
      productDescription: "A savings account paying 4.1% a year with no monthly fees.",
    },
    launch: {
      type: "staticad",
      concept:
        'Save for Eid gifts with 4.1% a year and no monthly fees. How much could you put aside by spring? Show the rate big and the app screen clearly. "Open an account in 5 minutes"',
      seasonal: "ramadan",
      quality: "premium",
      formats: ["1:1", "9:16"],
    },
    tagline: "Open an account in 5 minutes",
  },
  {
    id: "factory-dog-food",
    why: "Multi-Format: variants differ in hook and layout, in every format",
    brand: {
      brandName: "Pawpal",
      brandColors: "#e07a5f, #3d405b, #f4f1de",
      industry: "Pet food",
      productDescription: "Fresh dog food cooked from human-grade chicken and vegetables.",
    },
    photos: [{ shape: "pouch", label: "PAWPAL", color: "#e07a5f" }],
    site: {
      url: "https://pawpal-food.example/",
      title: "Pawpal: fresh dog food",
      paragraphs: [
        "Fresh food your dog will finish. Cooked from human-grade chicken and vegetables.",
        "Delivered every two weeks. Skip or cancel anytime.",
        "Loved by 18,000 dogs. First box 50% off.",
      ],
    },
    launch: {
      type: "factory",
      concept: "Fresh food your dog will finish. Show the bowl big and the offer clearly. First box 50% off.",
      formats: ["9:16", "1:1", "16:9", "4:5"],
    },
  },
  {
    id: "clone-backpack",
    why: "Inspiration: takes the structure of a reference ad, never its words about structure",
    brand: {
      brandName: "Fernway",
      brandColors: "#2f5233, #94c973, #fffbe9",
      industry: "Travel gear",
      productDescription: "A 30-litre carry-on backpack that opens like a suitcase.",
    },
    photos: [{ shape: "box", label: "FERNWAY", color: "#2f5233" }],
    site: {
      url: "https://reference-ad.example/",
      title: "Reference ad: carry-on done right",
      paragraphs: [
        "Tired of digging for your charger at security?",
        "Our pack opens flat like a suitcase, so everything has its place.",
        "Join 50,000 travellers. Shop now.",
      ],
    },
    launch: {
      type: "clone",
      concept: "Take the structure of the reference ad. Fernway opens flat like a suitcase and fits every overhead bin.",
      formats: ["9:16"],
    },
  },
  {
    id: "brand-bakery",
    why: "Brand Clone: reads the bakery's site and builds the ad from its kit",
    brand: {
      brandName: "Crumb & Co.",
      brandColors: "#9c6644, #ede0d4, #7f5539",
      industry: "Bakery",
      productDescription: "Sourdough bread baked every morning in Leeds.",
    },
    site: {
      url: "https://crumb-and-co.example/",
      title: "Crumb & Co. — sourdough, baked at dawn",
      paragraphs: [
        "Sourdough baked every morning before 6.",
        "Order by 9 pm, on your doorstep by breakfast.",
        "Voted Leeds' best bakery 2024.",
      ],
    },
    launch: { type: "brand", concept: "Bread that was dough at midnight and breakfast by 7.", formats: ["9:16"] },
  },
  {
    id: "optimizer-earplugs",
    why: "Ad Optimizer: improves the Pain Point ad, and its score is the creative score of what it made",
    brand: {
      brandName: "Quietloop",
      brandColors: "#2d3a8c, #a3b1ff, #f5f6ff",
      industry: "Sleep",
      productDescription: "Soft silicone earplugs that cut 24 dB of noise and stay comfortable all night.",
    },
    improves: "painpoint-earplugs",
    launch: { type: "ad-optimizer", formats: ["9:16"] },
  },
  {
    id: "local-audit-dentist",
    why: "Local Audit: grades a page it really read",
    brand: {
      brandName: "Brightside Dental",
      brandColors: "#0096c7, #caf0f8, #03045e",
      industry: "Dentistry",
      productDescription: "A family dental practice in Bristol with evening appointments.",
    },
    site: {
      url: "https://brightside-dental.example/",
      title: "Brightside Dental, Bristol",
      paragraphs: [
        "Family dentistry in Bristol, open until 8 pm on weekdays.",
        "Call 0117 496 0000 or book online.",
        "Rated 4.9 by 600 patients on Google.",
      ],
    },
    launch: { type: "local-audit" },
  },
  {
    id: "cinematic-saas-structured",
    why: "A structured brief (hook, benefits, proof, offer, CTA, direction) for a B2B product with no photo, AIDA",
    brand: {
      brandName: "Ledgerly",
      brandColors: "#14213d, #fca311, #e5e5e5",
      industry: "B2B software",
      productDescription: "Invoicing software that chases late payments for you.",
    },
    launch: {
      type: "cinematic",
      framework: "aida",
      brief: {
        hook: "Still chasing invoices by hand?",
        benefits: ["Reminders go out on their own", "Clients pay by card in one click"],
        proof: "Used by 3,200 small agencies",
        offer: "Free for your first 10 invoices",
        cta: "Start free",
        direction: "Screen recordings of the dashboard, quick cuts, end on the logo.",
      },
      formats: ["16:9"],
    },
    tagline: "Start free",
  },
  {
    id: "static-restaurant-eid",
    why: "Static ad, standard, Eid: a greeting line, the offer, and a question that keeps its question mark",
    brand: {
      brandName: "Nonna Rosa",
      brandColors: "#bc4749, #f2e8cf, #386641",
      industry: "Restaurant",
      productDescription: "A family trattoria with hand-made pasta and a wood-fired oven.",
    },
    photos: [{ shape: "jar", label: "NONNA ROSA", color: "#bc4749" }],
    launch: {
      type: "staticad",
      concept:
        'Hungry after iftar? Hand-made pasta and wood-fired pizza, open until 1 a.m. during Eid. Warm and family-friendly. "Book a table tonight"',
      seasonal: "eid",
      formats: ["4:5"],
    },
    tagline: "Book a table tonight",
  },
  {
    id: "painpoint-coffee-premium",
    why: "Pain Point at premium with a can photo and knowledge facts that suit proof and offer slots",
    brand: {
      brandName: "Brewly",
      brandColors: "#3b1f12, #8c5634, #e0a458",
      industry: "Beverages",
      productDescription: "Nitro cold brew in a can, 150 mg of caffeine, no sugar.",
      targetAudience: "night-shift nurses",
    },
    photos: [{ shape: "can", label: "BREWLY", color: "#3b1f12" }],
    knowledge: "Rated 4.9 stars by 12,000 nurses.\nFree delivery on 24-can packs.\n150 mg of caffeine, zero sugar.\n",
    launch: {
      type: "painpoint",
      concept:
        'Is 3 a.m. the hardest hour of your shift? Brewly gives you 150 mg of smooth caffeine, no sugar crash. Handheld shots in a hospital break room. "Stay sharp after midnight."',
      quality: "premium",
      formats: ["9:16"],
    },
    tagline: "Stay sharp after midnight.",
  },
  {
    id: "cinematic-4x5",
    why: "Director in a 4:5 feed cut (issue 44): no black bars, no long dark end card, motion in every second",
    brand: glacier,
    photos: [{ shape: "bottle", label: "GLACIER", color: "#0f3b5f" }],
    knowledge: glacierFacts,
    launch: { type: "cinematic", concept: glacierConcept, adPreset: "luxury", formats: ["4:5"] },
    tagline: "Cold at the summit.",
  },
  {
    id: "influencer-premium-1x1",
    why: "Influencer at premium in a square feed cut: big captions inside the 5 % margin, 1080p60",
    brand: {
      brandName: "Ridge Salt",
      brandColors: "#ff6b35, #1b1b1e, #fdf0d5",
      industry: "Sports nutrition",
      productDescription: "Electrolyte tablets with 500 mg of sodium and no sugar.",
      targetAudience: "endurance cyclists",
    },
    photos: [{ shape: "tube", label: "RIDGE SALT", color: "#ff6b35" }],
    launch: {
      type: "influencer",
      concept: "No more cramps on the last climb. 500 mg of sodium, zero sugar, one tablet per bottle. Casual and honest.",
      quality: "premium",
      formats: ["1:1"],
    },
  },
  {
    id: "painpoint-16x9",
    why: "Pain Point in 16:9: jittery grey problem, clean solution, copy inside the title-safe 10 %",
    brand: {
      brandName: "Quietloop",
      brandColors: "#2d3a8c, #a3b1ff, #f5f6ff",
      industry: "Sleep",
      productDescription: "Soft silicone earplugs that cut 24 dB of noise and stay comfortable all night.",
    },
    photos: [{ shape: "box", label: "QUIETLOOP", color: "#2d3a8c" }],
    knowledge: "Cuts noise by 24 dB.\nOver 40,000 light sleepers use Quietloop.\nFree shipping over $25.\n",
    launch: {
      type: "painpoint",
      concept: 'Woken again at 2 a.m.? Quietloop cuts 24 dB of noise and you forget you wear them. "Sleep through anything."',
      formats: ["16:9"],
    },
    tagline: "Sleep through anything.",
  },
  {
    id: "presenter-premium-4x5",
    why: "Presenter at premium in 4:5: the name bar inside the margin, never the word Presenter as a name",
    brand: {
      brandName: "Dewline",
      brandColors: "#f6d6d0, #8c3b4a, #fffaf7",
      industry: "Skincare",
      productDescription: "A fragrance-free hyaluronic serum for dry, sensitive skin.",
      targetAudience: "people with sensitive skin",
    },
    photos: [{ shape: "tube", label: "DEWLINE", color: "#8c3b4a" }],
    launch: {
      type: "avatar",
      concept: 'Does your skin feel tight by noon? Dewline holds moisture for 72 hours without fragrance. "Skin that stays soft."',
      quality: "premium",
      formats: ["4:5"],
    },
    tagline: "Skin that stays soft.",
  },
  {
    id: "factory-premium-bottle",
    why: "Factory at premium: three variants that differ in hook, motion and layout, on the beat",
    brand: glacier,
    photos: [{ shape: "bottle", label: "GLACIER", color: "#0f3b5f" }],
    knowledge: glacierFacts,
    launch: { type: "factory", concept: glacierConcept, quality: "premium", formats: ["9:16"] },
  },
  {
    id: "painpoint-coffee-4x5",
    why: "Pain Point, standard, 4:5 feed cut: a hook readable in the first frame, cuts on the beat, proof as a sticker",
    brand: {
      brandName: "Brewly",
      brandColors: "#3b1f12, #8c5634, #e0a458",
      industry: "Beverages",
      productDescription: "Nitro cold brew in a can, 150 mg of caffeine, no sugar.",
      targetAudience: "night-shift nurses",
    },
    photos: [{ shape: "can", label: "BREWLY", color: "#3b1f12" }],
    knowledge: "Rated 4.9 stars by 12,000 nurses.\nFree delivery on 24-can packs.\n150 mg of caffeine, zero sugar.\n",
    launch: {
      type: "painpoint",
      concept:
        'Is 3 a.m. the hardest hour of your shift? Brewly gives you 150 mg of smooth caffeine, no sugar crash. "Stay sharp after midnight."',
      formats: ["4:5"],
    },
    tagline: "Stay sharp after midnight.",
  },
];

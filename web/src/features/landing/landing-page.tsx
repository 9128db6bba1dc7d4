import { WORKFLOWS } from "@adgen/schema";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "wouter";
import { useOptionalSession } from "../../auth/session.tsx";
import { ContactForm } from "./contact-form.tsx";
import { NewsletterForm } from "./newsletter-form.tsx";
import { InlineError, Skeleton } from "../../ui/status.tsx";
import { formatMoney, formatNumber, planName } from "../../lib/format.ts";
import { usePrefersReducedMotion, useTitle } from "../../lib/hooks.ts";
import { type RouterOutputs, useTRPC } from "../../trpc.ts";

type Pricing = RouterOutputs["public"]["pricing"];

// The two video ads also play: four seconds of each ad from the still's moment on (pnpm ad-review, cut with
// ffmpeg to 480 px, H.264 without sound), served with the SPA like the stills; the still is the poster.
const HERO_STILLS = [
  {
    frame: "wide",
    ratio: "16:9",
    src: "/hero/wide-16x9.jpg",
    clip: "/hero/wide-16x9.mp4",
    alt: "A 16:9 Director ad for a software product, made by AdGen",
  },
  {
    frame: "tall",
    ratio: "9:16",
    src: "/hero/tall-9x16.jpg",
    clip: "/hero/tall-9x16.mp4",
    alt: "A 9:16 Presenter ad for skincare, made by AdGen",
  },
  { frame: "square", ratio: "1:1", src: "/hero/square-1x1.jpg", alt: "A 1:1 Static Ad for a bank's Ramadan offer, made by AdGen" },
  { frame: "portrait", ratio: "4:5", src: "/hero/portrait-4x5.jpg", alt: "A 4:5 Static Ad for a restaurant's Eid menu, made by AdGen" },
] as const;

const DESCRIPTIONS: Record<string, string> = Object.fromEntries(WORKFLOWS.map((w) => [w.type, w.description]));

export function LandingPage() {
  useTitle("");
  const trpc = useTRPC();
  const session = useOptionalSession();
  const pricing = useQuery(trpc.public.pricing.queryOptions(undefined, { staleTime: 10 * 60_000 }));
  const trial = pricing.data?.trial;
  return (
    <>
      <Hero signedIn={Boolean(session)} trial={trial} />
      <HowItWorks />
      <section id="workflows" className="section" aria-labelledby="workflows-title">
        <div className="section-inner">
          <h2 id="workflows-title" className="section-title">
            Workflows and credit costs
          </h2>
          <p className="section-lead muted">Each run costs a fixed number of credits, charged before it starts and refunded if it fails.</p>
          {pricing.isError ? (
            <InlineError error={pricing.error} onRetry={() => void pricing.refetch()} />
          ) : (
            <WorkflowTable pricing={pricing.data} />
          )}
        </div>
      </section>

      <section id="pricing" className="section section-alt" aria-labelledby="pricing-title">
        <div className="section-inner">
          <h2 id="pricing-title" className="section-title">
            Plans
          </h2>
          <p className="section-lead muted">Monthly credits with every plan. Top up any time with a credit pack.</p>
          {pricing.isError ? (
            <InlineError error={pricing.error} onRetry={() => void pricing.refetch()} />
          ) : (
            <Plans pricing={pricing.data} />
          )}
        </div>
      </section>

      <ContactSection />
      <section className="section cta">
        <div className="section-inner cta-inner">
          <h2 className="section-title">Your next ad is a sentence away.</h2>
          {session ? (
            <Link href="/dashboard" className="btn btn-primary btn-large">
              Go to your dashboard
            </Link>
          ) : (
            <Link href="/signup" className="btn btn-primary btn-large">
              Create your account
            </Link>
          )}
        </div>
      </section>
    </>
  );
}

function WorkflowTable({ pricing }: { pricing: Pricing | undefined }) {
  return (
    <div className="table-wrap">
      <table className="table" data-testid="pricing-table">
        <caption className="visually-hidden">Credits per run for each workflow</caption>
        <thead>
          <tr>
            <th scope="col">Workflow</th>
            <th scope="col" className="pricing-desc-col">
              What it makes
            </th>
            <th scope="col" className="num">
              Standard
            </th>
            <th scope="col" className="num">
              Premium
            </th>
          </tr>
        </thead>
        <tbody>
          {pricing
            ? pricing.workflows.map((w) => (
                <tr key={w.type} data-testid={`workflow-${w.type}`}>
                  <th scope="row">
                    {w.name}
                    {w.reservedOnPlans.length > 0 ? <span className="badge badge-muted">Paid plans</span> : null}
                    {/* On a phone the description goes under the name, so Standard and Premium stay in view. */}
                    <span className="pricing-desc-inline muted" aria-hidden="true">
                      {DESCRIPTIONS[w.type] ?? ""}
                    </span>
                  </th>
                  <td className="muted pricing-desc-col">{DESCRIPTIONS[w.type] ?? ""}</td>
                  <td className="num">
                    <Credits n={w.standard} />
                  </td>
                  <td className="num">
                    <Credits n={w.premium} />
                  </td>
                </tr>
              ))
            : Array.from({ length: 6 }, (_, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: static placeholder rows
                <tr key={i}>
                  <td>
                    <Skeleton width="8rem" />
                  </td>
                  <td className="pricing-desc-col">
                    <Skeleton width="16rem" />
                  </td>
                  <td className="num">
                    <Skeleton width="3rem" />
                  </td>
                  <td className="num">
                    <Skeleton width="3rem" />
                  </td>
                </tr>
              ))}
        </tbody>
      </table>
      {pricing && pricing.reservedWorkflows.types.length > 0 ? (
        <p className="table-note muted">
          {reservedNames(pricing)} need a paid plan; they are not available on the{" "}
          {pricing.reservedWorkflows.plans.map((p) => planName(p)).join(" or ")} plan.
        </p>
      ) : null}
    </div>
  );
}

function Credits({ n }: { n: number }) {
  return (
    <span className="credits">
      {formatNumber(n)} <span className="muted">{n === 1 ? "credit" : "credits"}</span>
    </span>
  );
}

/** "Brand Clone and Influencer": the workflows the free and trial plans cannot run. */
function reservedNames(pricing: Pricing): string {
  return pricing.reservedWorkflows.types.map((t) => pricing.workflows.find((w) => w.type === t)?.name ?? t).join(" and ");
}

const FEATURED_PLAN = "subscription_pro";

function Plans({ pricing }: { pricing: Pricing | undefined }) {
  const [interval, setBilling] = useState<"monthly" | "yearly">("monthly");
  if (!pricing) {
    return (
      <div className="plan-grid" aria-busy="true">
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className="plan-card">
            <Skeleton width="6rem" height="1.25rem" />
            <Skeleton width="8rem" height="2.5rem" />
            <Skeleton width="100%" height="4rem" />
          </div>
        ))}
      </div>
    );
  }
  const paid = pricing.plans.filter((p) => p.monthly > 0);
  const reserved = reservedNames(pricing);
  const saving = Math.max(0, ...paid.map((p) => 1 - p.yearly / (p.monthly * 12)));
  return (
    <>
      <fieldset className="segmented" aria-label="Billing interval">
        <legend className="visually-hidden">Billing interval</legend>
        {(["monthly", "yearly"] as const).map((value) => (
          <label key={value} className={interval === value ? "segmented-option is-selected" : "segmented-option"}>
            <input type="radio" name="interval" value={value} checked={interval === value} onChange={() => setBilling(value)} />
            {value === "monthly" ? "Monthly" : "Yearly"}
            {value === "yearly" && saving >= 0.01 ? <span className="segmented-hint">Save {Math.round(saving * 100)}%</span> : null}
          </label>
        ))}
      </fieldset>
      <div className="plan-grid" data-testid="plans">
        {paid.map((plan) => {
          const price = interval === "monthly" ? plan.monthly : plan.yearly;
          const featured = plan.id === FEATURED_PLAN;
          return (
            <article key={plan.id} className={featured ? "plan-card is-featured" : "plan-card"} data-testid={`plan-${plan.id}`}>
              {featured ? <span className="plan-ribbon">Most popular</span> : null}
              <h3 className="plan-name">{plan.name}</h3>
              <p className="plan-price">
                <span className="plan-amount">{formatMoney(price, plan.currency)}</span>
                <span className="muted"> / {interval === "monthly" ? "month" : "year"}</span>
              </p>
              <ul className="plan-features">
                <li>{formatNumber(plan.monthlyCredits)} credits every month</li>
                <li>{plan.reservedWorkflows && reserved ? `Every workflow except ${reserved}` : "Every workflow"}</li>
                <li>{plan.apiAccess ? "API access with your own keys" : "Web studio"}</li>
                <li>Credits refunded on failed runs</li>
              </ul>
            </article>
          );
        })}
      </div>
      <div className="extras">
        <div className="extra-card">
          <h3>Free trial</h3>
          <p className="muted">
            {pricing.trial.days} days and {pricing.trial.credits} credits to try{" "}
            {reserved ? `every workflow except ${reserved}` : "every workflow"}. No card needed.
          </p>
        </div>
        <div className="extra-card">
          <h3>Credit packs</h3>
          <ul className="pack-list">
            {pricing.packs.map((pack) => (
              <li key={pack.id}>
                <span>{formatNumber(pack.credits)} credits</span>
                <span className="pack-price">{formatMoney(pack.price, pack.currency)}</span>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </>
  );
}

/** The hero: what the service is, the way in, and stills it made, one per format. */
function Hero({ signedIn, trial }: { signedIn: boolean; trial: Pricing["trial"] | undefined }) {
  // Who asked for less motion sees the stills only (the clips are not even fetched).
  const reducedMotion = usePrefersReducedMotion();
  return (
    <section className="hero">
      <div className="hero-inner">
        <div className="hero-copy">
          <p className="eyebrow">AI video ad studio</p>
          <h1 className="hero-title">
            Video ads, <span className="gradient-text">directed by AI.</span>
          </h1>
          <p className="hero-lead">
            Turn a concept or a product page into finished ads for every feed (16:9, 9:16, 1:1 and 4:5) in your brand's look and voice. Pay
            per ad in credits, and get them back if a run fails.
          </p>
          <div className="hero-actions">
            {signedIn ? (
              <Link href="/dashboard" className="btn btn-primary btn-large">
                Go to your dashboard
              </Link>
            ) : (
              <Link href="/signup" className="btn btn-primary btn-large">
                Start free trial
              </Link>
            )}
            <a href="#pricing" className="btn btn-ghost btn-large">
              See pricing
            </a>
          </div>
          <p className="hero-note muted">
            {trial ? `${trial.days}-day trial with ${trial.credits} credits included. No card needed.` : "Free trial. No card needed."}
          </p>
        </div>
        {/* Stills the service made (pnpm ad-review --stills, copied into web/public/hero), one per format. */}
        <div className="hero-visual" data-testid="hero-stills">
          {HERO_STILLS.map((still) => (
            <figure key={still.ratio} className={`frame frame-${still.frame} frame-still`}>
              {"clip" in still && !reducedMotion ? (
                <video
                  src={still.clip}
                  poster={still.src}
                  aria-label={still.alt}
                  muted
                  loop
                  playsInline
                  autoPlay
                  preload="auto"
                  data-testid="hero-clip"
                />
              ) : (
                <img src={still.src} alt={still.alt} loading="eager" decoding="async" />
              )}
              <figcaption className="frame-label">{still.ratio}</figcaption>
            </figure>
          ))}
        </div>
      </div>
    </section>
  );
}

/** From brief to feed in three steps. */
function HowItWorks() {
  return (
    <section className="section steps" aria-labelledby="how-title">
      <div className="section-inner">
        <h2 id="how-title" className="section-title">
          From brief to feed in three steps
        </h2>
        <ol className="step-list">
          <li className="step">
            <span className="step-number">1</span>
            <h3>Describe the ad</h3>
            <p className="muted">A concept, a product URL or a reference ad you admire. Pick a workflow and a quality tier.</p>
          </li>
          <li className="step">
            <span className="step-number">2</span>
            <h3>Review the cut</h3>
            <p className="muted">Watch progress live, approve or send back the storyboard before anything final is rendered.</p>
          </li>
          <li className="step">
            <span className="step-number">3</span>
            <h3>Ship every format</h3>
            <p className="muted">Export sized for each platform, then let the performance loop suggest the next variant.</p>
          </li>
        </ol>
      </div>
    </section>
  );
}

/** Talk to the team, or sign up for the newsletter. */
function ContactSection() {
  return (
    <section id="contact" className="section" aria-labelledby="contact-title">
      <div className="section-inner contact-grid">
        <div className="contact-intro">
          <h2 id="contact-title" className="section-title">
            Talk to us
          </h2>
          <p className="section-lead muted">
            Questions about plans, credits or an agency set-up? Write to the team; a person answers by e-mail.
          </p>
          <NewsletterForm />
        </div>
        <div className="card contact-card">
          <ContactForm />
        </div>
      </div>
    </section>
  );
}

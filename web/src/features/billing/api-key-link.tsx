// Billing's pointer to the API key, which lives in Settings beside the webhooks: a link when the plan
// allows keys, else which plans do.
import { useQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import { planName } from "../../lib/format.ts";
import { useTRPC } from "../../trpc.ts";

export function ApiKeyLink() {
  const trpc = useTRPC();
  const status = useQuery(trpc.user.apiKey.queryOptions());
  const data = status.data;
  if (!data) return null;
  return (
    <section className="card billing-section" aria-labelledby="api-key-link-title" data-testid="api-key-link-card">
      <h2 id="api-key-link-title" className="card-title">
        API key
      </h2>
      {data.eligible ? (
        <p>
          Your plan includes an API key.{" "}
          <Link href="/settings#api-key" data-testid="api-key-settings-link">
            {data.hasApiKey ? "Manage your API key in Settings" : "Generate your API key in Settings"}
          </Link>
          , beside the webhooks.
        </p>
      ) : (
        <p className="muted" data-testid="api-key-ineligible">
          API keys come with the {data.eligiblePlans.map(planName).join(" and ")} plans; you are on {planName(data.currentPlan)}.
        </p>
      )}
    </section>
  );
}

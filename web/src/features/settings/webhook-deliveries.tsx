// The webhook's recent deliveries (job events and test deliveries), newest first, with their outcome.
import { formatDateTime } from "../../lib/format.ts";
import type { RouterOutputs } from "../../trpc.ts";

type Delivery = RouterOutputs["webhook"]["get"]["recentDeliveries"][number];

const STATUS: Record<string, { label: string; badge: string }> = {
  delivered: { label: "Delivered", badge: "badge badge-success" },
  failed: { label: "Failed", badge: "badge badge-danger" },
  pending: { label: "Retrying", badge: "badge badge-warning" },
};

function outcome(delivery: Delivery): string {
  if (delivery.status === "delivered") return `answered ${delivery.lastStatus ?? "OK"}`;
  const tries = `${delivery.attempts} ${delivery.attempts === 1 ? "attempt" : "attempts"}`;
  if (delivery.attempts === 0) return "waiting for the first attempt";
  return `${delivery.lastError ?? "no answer"} (${tries})`;
}

export function WebhookDeliveries({ deliveries }: { deliveries: Delivery[] }) {
  if (deliveries.length === 0) {
    return (
      <p className="muted webhook-empty" data-testid="webhook-deliveries-empty">
        No deliveries yet. Send a test, or launch a job: each of its events is delivered here.
      </p>
    );
  }
  return (
    <ul className="webhook-deliveries" data-testid="webhook-deliveries">
      {deliveries.map((delivery) => {
        const status = STATUS[delivery.status] ?? { label: delivery.status, badge: "badge badge-muted" };
        return (
          <li key={delivery.id} className="webhook-delivery" data-testid="webhook-delivery" data-status={delivery.status}>
            <span className={status.badge}>{status.label}</span>
            <span className="webhook-delivery-event mono">{delivery.eventKind}</span>
            <span className="webhook-delivery-outcome muted">{outcome(delivery)}</span>
            <time className="webhook-delivery-time muted" dateTime={delivery.createdAt}>
              {formatDateTime(delivery.createdAt)}
            </time>
          </li>
        );
      })}
    </ul>
  );
}

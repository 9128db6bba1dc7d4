// A launch the assistant prepared waits for the person: its price and what it makes, with a button that
// says the price and one that drops it. The buttons answer as a typed "yes" or "no" would, so the
// thread reads the same either way; until one is pressed (or "yes" typed) nothing is charged.
import { formatNumber } from "../../lib/format.ts";

interface PendingLaunchCardProps {
  pending: { type: string; cost: number; summary: string };
  disabled: boolean;
  onAnswer: (message: "yes" | "no") => void;
}

export function PendingLaunchCard({ pending, disabled, onAnswer }: PendingLaunchCardProps) {
  const price = `${formatNumber(pending.cost)} ${pending.cost === 1 ? "credit" : "credits"}`;
  return (
    <section className="card assistant-pending" aria-label="Launch waiting for your yes" data-testid="assistant-pending-launch">
      <p className="assistant-pending-text">
        <strong>Waiting for your yes:</strong> {pending.summary}. Nothing is charged until you launch it.
      </p>
      <div className="assistant-pending-actions">
        <button
          type="button"
          className="btn btn-ghost btn-small"
          onClick={() => onAnswer("no")}
          disabled={disabled}
          data-testid="assistant-drop-launch"
        >
          Drop it
        </button>
        <button
          type="button"
          className="btn btn-primary btn-small"
          onClick={() => onAnswer("yes")}
          disabled={disabled}
          data-testid="assistant-confirm-launch"
        >
          Launch for {price}
        </button>
      </div>
    </section>
  );
}

// Whether the job's live updates are coming in (Live, Reconnecting…, Updates paused).
import type { JobStreamStatus } from "../../lib/job-events.ts";

export function StreamBadge({ status, finished }: { status: JobStreamStatus; finished: boolean }) {
  if (finished) return null;
  const live = status === "live";
  const label = live ? "Live" : status === "reconnecting" ? "Reconnecting…" : status === "error" ? "Updates paused" : "Connecting…";
  const dot = live ? "live" : status === "error" ? "off" : "reconnecting";
  return (
    <span className="live-badge" data-testid="job-stream" data-status={status}>
      <span className={`live-dot live-${dot}`} aria-hidden="true" />
      {label}
    </span>
  );
}

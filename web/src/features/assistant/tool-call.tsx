// One tool call as it happened: what the assistant did, in words, with the details on demand.
import type { ToolCall } from "./chat-stream.ts";

const LABELS: Record<string, string> = {
  read_performance: "Read your performance",
  plan_campaign: "Planned a campaign",
  estimate_launch: "Estimated a launch",
  launch_workflow: "Prepared a launch (waiting for your yes)",
  confirm_launch: "Launched a workflow",
  search_knowledge: "Searched your brand knowledge",
  project_status: "Checked your projects",
};

export function ToolCallCard({ call }: { call: ToolCall }) {
  const failed = Boolean(call.result && typeof call.result === "object" && "error" in (call.result as object));
  return (
    <details className={`assistant-tool${failed ? " assistant-tool-failed" : ""}`} data-testid="assistant-tool">
      <summary>
        <span className="badge badge-muted">{failed ? "Could not" : "Tool"}</span> {LABELS[call.name] ?? call.name}
      </summary>
      <pre className="assistant-tool-detail">{JSON.stringify({ asked: call.arguments, answered: call.result }, null, 2)}</pre>
    </details>
  );
}

// "Publish when finished": offered for videos once a social account is connected (Settings → Publishing).
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../trpc.ts";

interface PublishToggleProps {
  id: string;
  makesVideo: boolean;
  checked: boolean;
  onChange(checked: boolean): void;
}

export function PublishToggle({ id, makesVideo, checked, onChange }: PublishToggleProps) {
  const trpc = useTRPC();
  const social = useQuery(trpc.social.list.queryOptions());
  if ((social.data?.length ?? 0) === 0 || !makesVideo) return null;
  return (
    <label className="toggle" htmlFor={id}>
      <input
        id={id}
        type="checkbox"
        className="switch"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        data-testid="field-publish"
      />
      <span className="toggle-text">
        <span className="toggle-label">Publish when finished</span>
        <span className="field-hint">Posted to {social.data?.[0]?.pageName} at your schedule's next time (Settings → Publishing).</span>
      </span>
    </label>
  );
}

// "Publish when finished": offered for videos once a social account is connected (Settings → Publishing).
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../trpc.ts";
import { Toggle } from "../../ui/toggle.tsx";

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
    <Toggle
      id={id}
      label="Publish when finished"
      hint={`Posted to ${social.data?.[0]?.pageName ?? ""} at your schedule's next time (Settings → Publishing).`}
      checked={checked}
      onChange={onChange}
      testId="field-publish"
    />
  );
}

// Settings: push notifications in this browser. Subscribing registers the service worker (/push-sw.js),
// asks the browser for permission, subscribes with the service's VAPID key and sends the subscription
// to the server. Every way a browser can refuse is said in words.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { FormAlert, FormSuccess } from "../../ui/form.tsx";
import { errorMessage } from "../../lib/errors.ts";
import { useTRPC } from "../../trpc.ts";
import { browserPushSupport, currentSubscription, subscribeBrowser, unsubscribeBrowser } from "./browser-push.ts";
import { Toggle } from "../../ui/toggle.tsx";
import { SettingsCard } from "../../ui/settings-card.tsx";

export function PushNotificationsSection() {
  const uid = useId();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const status = useQuery(trpc.notifications.status.queryOptions());
  const subscribe = useMutation(trpc.notifications.subscribe.mutationOptions());
  const unsubscribe = useMutation(trpc.notifications.unsubscribe.mutationOptions());
  const sendTest = useMutation(trpc.notifications.send.mutationOptions());
  const [enabled, setEnabled] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const support = browserPushSupport();
  const subscribed = status.data?.subscriptions ?? 0;

  useEffect(() => {
    if (!support.ok) return;
    currentSubscription()
      .then((subscription) => setEnabled(!!subscription))
      .catch(() => setEnabled(false));
  }, [support.ok]);

  async function toggle(next: boolean) {
    if (busy) return;
    setBusy(true);
    setProblem(null);
    setNotice(null);
    try {
      if (next) {
        const key = status.data?.vapidPublicKey;
        if (!key) throw new Error("The notification settings have not loaded yet. Try again in a moment.");
        const subscription = await subscribeBrowser(key);
        await subscribe.mutateAsync({ subscription });
        setEnabled(true);
        setNotice("Notifications are on in this browser. You will hear when an ad is ready or fails.");
      } else {
        const endpoint = await unsubscribeBrowser();
        await unsubscribe.mutateAsync(endpoint ? { endpoint } : {});
        setEnabled(false);
        setNotice("Notifications are off in this browser.");
      }
      await queryClient.invalidateQueries({ queryKey: trpc.notifications.status.queryKey() });
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  async function test() {
    setProblem(null);
    setNotice(null);
    try {
      const result = await sendTest.mutateAsync({ title: "Test notification", body: "Push notifications work in this browser." });
      setNotice(
        result.sent > 0
          ? `Sent to ${result.sent} ${result.sent === 1 ? "browser" : "browsers"}.`
          : "No browser received it: turn notifications on first.",
      );
    } catch (error) {
      setProblem(errorMessage(error));
    }
  }

  return (
    <SettingsCard
      title="Notifications"
      testId="push-settings"
      intro="Get a notification on this device when an ad finishes or fails, even with AdGen closed."
    >
      <div className="form">
        {problem ? <FormAlert testId="push-error">{problem}</FormAlert> : null}
        {notice ? <FormSuccess testId="push-notice">{notice}</FormSuccess> : null}
        {!support.ok ? (
          <p className="muted" data-testid="push-unsupported">
            {support.reason}
          </p>
        ) : (
          <Toggle
            id={`${uid}-toggle`}
            label={busy ? "Working…" : "Push notifications in this browser"}
            hint={
              status.data
                ? `${status.data.subscriptions} ${status.data.subscriptions === 1 ? "browser" : "browsers"} subscribed on your account.`
                : " "
            }
            checked={enabled}
            disabled={busy || status.isPending}
            onChange={(on) => void toggle(on)}
            testId="push-toggle"
          />
        )}
        <div className="form-actions">
          <button
            type="button"
            className="btn btn-ghost btn-small"
            onClick={() => void test()}
            disabled={sendTest.isPending || subscribed === 0}
            aria-describedby={subscribed === 0 ? `${uid}-test-hint` : undefined}
            data-testid="push-test"
          >
            {sendTest.isPending ? "Sending…" : "Send a test notification"}
          </button>
          {subscribed === 0 ? (
            <span id={`${uid}-test-hint`} className="muted field-hint" data-testid="push-test-hint">
              Turn notifications on in a browser first; the test goes to every subscribed browser.
            </span>
          ) : null}
        </div>
      </div>
    </SettingsCard>
  );
}

// The browser side of Web Push: the service worker, the permission, the PushManager subscription.
// Errors are thrown as sentences a person can act on.

const WORKER_URL = "/push-sw.js";

export function browserPushSupport(): { ok: true } | { ok: false; reason: string } {
  if (typeof window === "undefined" || !("serviceWorker" in navigator)) {
    return { ok: false, reason: "This browser cannot receive push notifications (no service workers)." };
  }
  if (!("PushManager" in window)) return { ok: false, reason: "This browser cannot receive push notifications." };
  if (!window.isSecureContext) return { ok: false, reason: "Push notifications need a secure (https) address." };
  return { ok: true };
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, "+")
    .replace(/_/g, "/")
    .padEnd(Math.ceil(base64url.length / 4) * 4, "=");
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

async function registration(): Promise<ServiceWorkerRegistration> {
  await navigator.serviceWorker.register(WORKER_URL);
  return navigator.serviceWorker.ready;
}

export async function currentSubscription(): Promise<PushSubscription | null> {
  const existing = await navigator.serviceWorker.getRegistration(WORKER_URL);
  return existing ? existing.pushManager.getSubscription() : null;
}

export interface SubscriptionJson {
  endpoint: string;
  expirationTime: number | null;
  keys: { p256dh: string; auth: string };
}

export async function subscribeBrowser(vapidPublicKey: string): Promise<SubscriptionJson> {
  const permission = await Notification.requestPermission();
  if (permission === "denied") {
    throw new Error("Your browser blocks notifications from this site. Allow them in the browser's site settings, then try again.");
  }
  if (permission !== "granted") throw new Error("Notifications were not allowed. Turn the switch on again and choose Allow.");
  let worker: ServiceWorkerRegistration;
  try {
    worker = await registration();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`This page could not start its notification helper (${reason}). Reload the page and try again.`);
  }
  let subscription: PushSubscription;
  try {
    subscription =
      (await worker.pushManager.getSubscription()) ??
      (await worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(vapidPublicKey) }));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    // Chromium says "push service not available" when it cannot reach its vendor's push service (offline,
    // a network that blocks it, or a build without one): nothing on this page can change that.
    throw new Error(
      `Your browser could not reach its push service (${reason}). Check that this device is online, or use a browser with push notifications, such as Chrome, Edge or Firefox; e-mail notifications work meanwhile.`,
    );
  }
  const json = subscription.toJSON();
  if (!json.endpoint || !json.keys?.p256dh || !json.keys.auth) throw new Error("The browser gave an incomplete subscription. Try again.");
  return { endpoint: json.endpoint, expirationTime: json.expirationTime ?? null, keys: { p256dh: json.keys.p256dh, auth: json.keys.auth } };
}

/** Unsubscribes this browser; answers its endpoint (to remove on the server), if it had one. */
export async function unsubscribeBrowser(): Promise<string | null> {
  const subscription = await currentSubscription();
  if (!subscription) return null;
  await subscription.unsubscribe();
  return subscription.endpoint;
}

// Person ads (avatar, influencer) need a person: a presenter photo in the account's media library, stored
// with the person's consent. Tests that launch them give their account one first.
import { createCanvas } from "@napi-rs/canvas";

/** A presenter photo no product looks like: a saturated orange face on green. */
export function presenterPhoto(): Buffer {
  const canvas = createCanvas(600, 800);
  const g = canvas.getContext("2d");
  g.fillStyle = "#10a040";
  g.fillRect(0, 0, 600, 800);
  g.fillStyle = "#ff8000";
  g.beginPath();
  g.ellipse(300, 380, 190, 250, 0, 0, Math.PI * 2);
  g.fill();
  return canvas.toBuffer("image/png");
}

/**
 * Uploads a presenter photo (with consent, in `name`) to the library of the account whose session cookie
 * is `session` (an Account's jwt, a RestClient's cookie); answers the stored item.
 */
export async function givePresenter(app: { url: string }, session: string, name = "Sam Lee"): Promise<{ id: string }> {
  const form = new FormData();
  form.append("role", "presenter");
  form.append("consentName", name);
  form.append("consent", "on");
  form.append("file", new Blob([new Uint8Array(presenterPhoto())]), "presenter.png");
  const res = await fetch(`${app.url}/api/user/brand/media`, { method: "POST", headers: { cookie: `session=${session}` }, body: form });
  const body = (await res.json()) as { data?: { id: string }; error?: string };
  if (res.status !== 200 || !body.data) throw new Error(`presenter upload: ${res.status} ${body.error}`);
  return body.data;
}

// The `{ success, data | error }` envelope. Its JSON text is kept beside the Response, so the adapter can
// answer with a Response built from the text once its headers are merged: re-wrapping `response.body`
// made every answer a web stream that the Node server then read back chunk by chunk.
const textOf = new WeakMap<Response, string>();

function json(payload: unknown, init: ResponseInit): Response {
  const text = JSON.stringify(payload);
  const headers = new Headers(init.headers);
  if (!headers.has("content-type")) headers.set("content-type", "application/json");
  const response = new Response(text, { ...init, headers });
  textOf.set(response, text);
  return response;
}

export function success(data: unknown, init: ResponseInit = {}, extra: Record<string, unknown> = {}): Response {
  return json({ success: true, data: data ?? null, ...extra }, init);
}

export function failure(status: number, error: string, init: ResponseInit = {}, extra: Record<string, unknown> = {}): Response {
  return json({ success: false, error, ...extra }, { ...init, status });
}

/** The body of an envelope made here (null for any other Response: a stream, a file). */
export function envelopeText(response: Response): string | null {
  return textOf.get(response) ?? null;
}

// The front door refuses some requests before any transport sees them (a body too large, a foreign
// origin), in the shape of the transport the path belongs to. Their bodies get the request id where
// that transport's own errors carry it: REST `requestId`, tRPC `error.data.requestId`, GraphQL
// `errors[].extensions.requestId`.

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

function stamp(body: unknown, requestId: string): unknown {
  if (!isObject(body)) return body;
  if (body.success === false) return { ...body, requestId };
  if (isObject(body.error)) {
    const data = isObject(body.error.data) ? body.error.data : {};
    return { ...body, error: { ...body.error, data: { ...data, requestId } } };
  }
  if (Array.isArray(body.errors)) {
    return {
      ...body,
      errors: body.errors.map((error: unknown) =>
        isObject(error) ? { ...error, extensions: { ...(isObject(error.extensions) ? error.extensions : {}), requestId } } : error,
      ),
    };
  }
  return body;
}

/** The refusal with the request id in its JSON body; any other answer as it was. */
export async function stampRequestId(response: Response, requestId: string): Promise<Response> {
  if (!/^application\/json/i.test(response.headers.get("content-type") ?? "")) return response;
  let body: unknown;
  try {
    body = await response.clone().json();
  } catch {
    return response;
  }
  // A plain record: a refusal has no repeated header (no cookies), and a Headers instance made here may
  // not be the class the HTTP server checks for when a test's msw has replaced the global one.
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== "content-length") headers[name] = value;
  });
  return new Response(JSON.stringify(stamp(body, requestId)), { status: response.status, statusText: response.statusText, headers });
}

// The `{ success, data | error }` envelope.
export function success(data: unknown, init: ResponseInit = {}, extra: Record<string, unknown> = {}): Response {
  return Response.json({ success: true, data: data ?? null, ...extra }, init);
}

export function failure(status: number, error: string, init: ResponseInit = {}, extra: Record<string, unknown> = {}): Response {
  return Response.json({ success: false, error, ...extra }, { ...init, status });
}

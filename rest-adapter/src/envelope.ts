// The `{ success, data | error }` envelope and the one table from domain error codes to statuses.
import { AppError, ERROR_STATUS } from "@adgen/server/errors.ts";

export function success(data: unknown, init: ResponseInit = {}): Response {
  return Response.json({ success: true, data: data ?? null }, init);
}

export function failure(status: number, error: string, init: ResponseInit = {}): Response {
  return Response.json({ success: false, error }, { ...init, status });
}

export function errorResponse(error: unknown): Response {
  if (error instanceof AppError) return failure(ERROR_STATUS[error.code], error.message);
  console.error("[rest]", error);
  return failure(500, "Internal server error");
}

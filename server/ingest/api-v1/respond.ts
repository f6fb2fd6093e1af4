import type { z } from "zod";

/** A refusal in the API's one error shape (schemas.ts `ApiErrorSchema`). */
export function apiError(status: number, code: string, message: string, fieldErrors?: Record<string, string[]>): Response {
  return Response.json({ ok: false, code, message, ...(fieldErrors ? { fieldErrors } : {}) }, { status });
}

/** 400 naming each bad field and what it expected. */
export function invalidRequest(error: z.ZodError): Response {
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of error.issues) (fieldErrors[issue.path.join(".") || "request"] ??= []).push(issue.message);
  return apiError(400, "invalid_request", error.issues.map((i) => `${i.path.join(".") || "request"}: ${i.message}`).join("; "), fieldErrors);
}

/** The query string as an object for a zod schema. */
export function queryOf(request: Request): Record<string, string> {
  return Object.fromEntries(new URL(request.url).searchParams);
}

import { z } from "zod";
import { MAX_WINDOW } from "./get-message-window";
import type { MessageView, MessageWindow, SearchResult } from "./types";

/**
 * Request schemas and response bodies of /api/sessions/[id]/*, shared by the route handlers and
 * the viewer's fetch code (types only on the client side).
 */

const MessageIndex = z.coerce.number({ error: "must be a number" }).int("must be an integer").min(0, "must be ≥ 0");

/** `GET /api/sessions/[id]/messages?from=&to=`: a window [from, to) of at most MAX_WINDOW messages. */
export const MessageWindowQuerySchema = z
  .object({ from: MessageIndex, to: MessageIndex })
  .refine((q) => q.to > q.from, { message: "must be greater than from", path: ["to"] })
  .refine((q) => q.to - q.from <= MAX_WINDOW, { message: `must be at most from + ${MAX_WINDOW} (messages per request)`, path: ["to"] });

/** `GET /api/sessions/[id]/messages/[index]`. */
export const MessageIndexParamSchema = z.object({ index: MessageIndex });

/** `GET /api/sessions/[id]/search?q=&limit=`. */
export const SearchQuerySchema = z.object({
  q: z.string().trim().min(1, "q is required").max(500, "q is at most 500 characters"),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});

export type SessionApiErrorCode = "unauthenticated" | "forbidden" | "invalid_request" | "not_found" | "internal";
export interface SessionApiError {
  ok: false;
  code: SessionApiErrorCode;
  message: string;
  fieldErrors?: Record<string, string[]>;
}
export type SessionApiResponse<T> = { ok: true; data: T } | SessionApiError;
export type MessageWindowResponse = SessionApiResponse<MessageWindow>;
export type MessageResponse = SessionApiResponse<MessageView>;
export type SearchResponse = SessionApiResponse<SearchResult>;

export function apiOk<T>(data: T): Response {
  return Response.json({ ok: true, data } satisfies SessionApiResponse<T>);
}

export function apiFail(status: number, code: SessionApiErrorCode, message: string, fieldErrors?: Record<string, string[]>): Response {
  return Response.json({ ok: false, code, message, ...(fieldErrors ? { fieldErrors } : {}) } satisfies SessionApiError, { status });
}

/** 400 with every issue, keyed by field. */
export function invalidRequest(error: z.ZodError): Response {
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of error.issues) (fieldErrors[issue.path.join(".") || "_"] ??= []).push(issue.message);
  return apiFail(400, "invalid_request", error.issues.map((i) => `${i.path.join(".") || "request"}: ${i.message}`).join("; "), fieldErrors);
}

export function sessionNotFound(): Response {
  return apiFail(404, "not_found", "no such session");
}

import type { ParseIssue } from "@/lib/trace/model";
import type { UploadOutcome } from "./receive-upload";

/** Issues sent back per response; the total is always reported beside them. */
export const MAX_ISSUES_IN_RESPONSE = 100;

/** Body of a successful `PUT /api/uploads` (the file was imported, or was already there). */
export interface UploadOk {
  ok: true;
  data: Exclude<UploadOutcome, { status: "failed" }> & { warningCount?: number };
}

/** Body of a refused upload; `issues` is set when the file was read but is not a valid trace. */
export interface UploadError {
  ok: false;
  code:
    | "unauthenticated"
    | "forbidden"
    | "invalid_request"
    | "too_large"
    | "empty_file"
    | "invalid_trace"
    | "internal"
    | "archive_refused"
    | "one_file_per_request"
    | "rate_limited"
    | "import_failed";
  message: string;
  format?: string;
  issues?: ParseIssue[];
  issueCount?: number;
}

export type UploadResponse = UploadOk | UploadError;

/**
 * Maps an import outcome to its HTTP status and body (422 with the located issues for "failed",
 * 202 for a large file queued for a job worker: poll `GET /api/uploads/imports/<importId>`).
 */
export function outcomeResponse(outcome: UploadOutcome): { status: number; body: UploadResponse } {
  if (outcome.status === "queued" || outcome.status === "importing") return { status: 202, body: { ok: true, data: outcome } };
  if (outcome.status === "failed") {
    const count = outcome.errors.length;
    return {
      status: 422,
      body: {
        ok: false,
        code: "invalid_trace",
        message: `the file is not a valid ${outcome.format === "unknown" ? "trace" : outcome.format} file: ${count} ${count === 1 ? "error" : "errors"}`,
        format: outcome.format,
        issues: outcome.errors.slice(0, MAX_ISSUES_IN_RESPONSE),
        issueCount: count,
      },
    };
  }
  if (outcome.status === "imported") {
    const data = { ...outcome, warnings: outcome.warnings.slice(0, MAX_ISSUES_IN_RESPONSE), warningCount: outcome.warnings.length };
    return { status: 201, body: { ok: true, data } };
  }
  return { status: 200, body: { ok: true, data: outcome } };
}

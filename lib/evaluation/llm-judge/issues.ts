import type { z } from "zod";

/** One thing wrong with a judge's answer, located by a dotted JSON path ("" for the root). */
export interface AnswerIssue {
  path: string;
  message: string;
}

/**
 * Why a judge answer was rejected. `code` says at which stage: the wrapper (`empty`, `no_json`,
 * `multiple_json`, `invalid_json`), the schema (`schema`: wrong or missing fields, unknown keys)
 * or the contract's own rules (`semantic`: score ranges, a culprit that is not in the packet…).
 * `issues` lists every problem found at that stage, not just the first. Plain data, so it can be
 * stored with the run and shown in the studio.
 */
export interface AnswerParseError {
  code: "empty" | "no_json" | "multiple_json" | "invalid_json" | "schema" | "semantic";
  message: string;
  issues: AnswerIssue[];
}

export type ParseOutcome<T> = { ok: true; value: T; wrapped: boolean } | { ok: false; error: AnswerParseError };

/** zod issues as located messages (`dimension_scores.goal_retention.score: …`). */
export function zodIssues(error: z.ZodError): AnswerIssue[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
}

/** Keys of `value` (an object) that `allowed` does not list, as issues at `path`. */
export function unknownKeys(value: unknown, allowed: readonly string[], path: string): AnswerIssue[] {
  if (!value || typeof value !== "object" || Array.isArray(value)) return [];
  return Object.keys(value)
    .filter((k) => !allowed.includes(k))
    .map((k) => ({ path: path ? `${path}.${k}` : k, message: `unknown key "${k}" (allowed: ${allowed.join(", ")})` }));
}

/** The error for a list of issues at one stage, with a one-line summary of them. */
export function failure(code: AnswerParseError["code"], issues: AnswerIssue[]): { ok: false; error: AnswerParseError } {
  const head = issues
    .slice(0, 4)
    .map((i) => (i.path ? `${i.path}: ${i.message}` : i.message))
    .join("; ");
  const more = issues.length > 4 ? ` (+${issues.length - 4} more)` : "";
  return {
    ok: false,
    error: { code, message: `${code === "schema" ? "the JSON does not match the schema" : "the answer breaks the contract"}: ${head}${more}`, issues },
  };
}

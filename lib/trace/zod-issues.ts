import type { z } from "zod";
import type { IssueList } from "./importer";

/**
 * zod issues of one record → located issues, for importers that validate third-party records with
 * zod. Each issue keeps the record's own field path under `field` (`simulations[2].messages[5]` +
 * `tool_calls[0].id`), the line of that field (or of its nearest located ancestor) and what was
 * expected there, so a user can find the value without reading zod's output. Every issue of the
 * record is reported, not just the first.
 */
export interface RecordLocation {
  /** Field path of the record itself (`""` for a JSONL line or the document root). */
  field: string;
  /** Line of a field path inside the document (a JSONL record: always its own line). */
  lineOf(field: string): number;
}

/** Reports every zod issue of one record, prefixed by `what` (what happened to the record). */
export function reportZodIssues(issues: IssueList, error: z.ZodError, where: RecordLocation, what: string, severity: "error" | "warning" = "error"): void {
  for (const issue of error.issues) {
    const paths = issue.code === "unrecognized_keys" ? issue.keys.map((key) => [...issue.path, key]) : [issue.path];
    for (const path of paths) {
      const field = joinField(where.field, path);
      const message = `${what}: ${issue.message}`;
      if (severity === "error") issues.error(where.lineOf(field), message, field || undefined, expectedOf(issue));
      else issues.warn(where.lineOf(field), message, field || undefined);
    }
  }
}

/** `messages[2]` + `["tool_calls", 0, "id"]` → `messages[2].tool_calls[0].id`. */
export function joinField(base: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === "number" ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), base);
}

/** What a failed zod check expected, in words an importer's error can show (undefined when zod says it well). */
export function expectedOf(issue: z.core.$ZodIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      return issue.expected;
    case "invalid_value":
      return issue.values.map((v) => JSON.stringify(v)).join(" | ");
    case "too_small":
      return issue.origin === "string" ? "a non-empty string" : `>= ${String(issue.minimum)}`;
    default:
      return undefined;
  }
}

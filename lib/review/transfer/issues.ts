import type { z } from "zod";

/**
 * A located import problem: the line (1-based; for CSV the line a record starts on), the field
 * (JSONL: dotted path such as `future.start`; CSV: the column name), what was expected there, and
 * a sentence saying what was wrong.
 */
export interface ImportError {
  line: number;
  field: string;
  expected: string;
  message: string;
}

/** Maps zod issues to located errors; `fieldName` turns an issue path into the field to report. */
export function locateIssues(issues: readonly z.core.$ZodIssue[], line: number, fieldName: (path: PropertyKey[]) => string): ImportError[] {
  return issues.flatMap((issue) => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({ line, field: fieldName([...issue.path, key]), expected: "no such field", message: `unknown field ${key}` }));
    }
    return [{ line, field: fieldName(issue.path) || "(record)", expected: expectedOf(issue), message: issue.message }];
  });
}

function expectedOf(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return issue.expected;
    case "too_small":
      return issue.origin === "string"
        ? `text of at least ${issue.minimum} character${issue.minimum === 1 ? "" : "s"}`
        : `${issue.inclusive ? "≥" : ">"} ${issue.minimum}`;
    case "too_big":
      return issue.origin === "string" ? `text of at most ${issue.maximum} characters` : `${issue.inclusive ? "≤" : "<"} ${issue.maximum}`;
    case "invalid_value":
      return `one of ${issue.values.map((v) => String(v)).join(", ")}`;
    case "invalid_format":
      return issue.format === "datetime" ? "ISO 8601 date-time with offset" : issue.format;
    case "invalid_union":
      return "discriminator" in issue && Array.isArray((issue as { options?: unknown[] }).options)
        ? `one of ${(issue as { options: unknown[] }).options.join(", ")}`
        : "a valid label";
    case "not_multiple_of":
      return `a multiple of ${issue.divisor}`;
    default:
      return issue.message;
  }
}

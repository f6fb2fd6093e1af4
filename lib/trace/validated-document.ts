import type { z } from "zod";
import type { IssueList } from "./importer";
import { jsonKind, readLocatedJsonDocument } from "./json-lines";
import type { TraceSource } from "./source";
import { reportZodIssues } from "./zod-issues";

/**
 * The whole-document importers' first step, in one place: read the JSON document with its value
 * lines (down to `depth` path segments), then validate the root object with `schema`. Returns the
 * parsed root and the line lookup, or undefined after reporting why (unreadable JSON, not an
 * object — "expected <expected>, found an array" —, or the schema's located issues, each
 * followed by `invalid`).
 */
export async function readValidatedDocument<T extends z.ZodType>(
  source: TraceSource,
  issues: IssueList,
  schema: T,
  options: { depth: number; expected: string; invalid: string; shape: string },
): Promise<{ data: z.infer<T>; lineOf: (path: string) => number } | undefined> {
  const doc = await readLocatedJsonDocument(source, issues, options.depth);
  if (!doc) return undefined;
  const parsed = schema.safeParse(doc.value);
  if (parsed.success) return { data: parsed.data, lineOf: doc.lineOf };
  if (jsonKind(doc.value) !== "an object") issues.error(1, `expected ${options.expected}, found ${jsonKind(doc.value)}`, undefined, options.shape);
  else reportZodIssues(issues, parsed.error, { field: "", lineOf: doc.lineOf }, options.invalid);
  return undefined;
}

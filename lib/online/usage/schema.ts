import { z } from "zod";

/**
 * One model call of production traffic, as Tracefold reads it from a usage log (or derives it from
 * a trace's provider usage).
 *
 * Token convention (what every aggregate and the cost model rely on): `inputTokens` is the whole
 * prompt of the call — cached reads and cache writes included — so `cachedInputTokens +
 * cacheWriteTokens ≤ inputTokens` and the uncached, un-written remainder is billed at the plain
 * input price. OpenAI-style logs already report prompts this way; Anthropic-style logs report
 * `input_tokens` without the cache terms and must be added up first (see `trace-usage.ts`).
 */
export const USAGE_FIELDS = [
  "timestamp",
  "account",
  "group",
  "surface",
  "inputTokens",
  "cachedInputTokens",
  "cacheWriteTokens",
  "outputTokens",
  "model",
] as const;
export type UsageField = (typeof USAGE_FIELDS)[number];

/** Fields a mapping must provide; the others default (tokens to 0, text fields to absent). */
export const REQUIRED_FIELDS: readonly UsageField[] = ["timestamp", "account", "inputTokens"];

export const GROUPS = ["treatment", "control"] as const;
export type Group = (typeof GROUPS)[number];

const tokens = z.number().int("a whole number of tokens").nonnegative("a number of tokens ≥ 0");

export const UsageRowSchema = z
  .object({
    /** Milliseconds since the epoch (UTC instant of the call). */
    timestamp: z.number().finite(),
    /** Account id or e-mail: the unit of assignment and of the cluster bootstrap. */
    account: z.string().min(1, "a non-empty account id or e-mail"),
    /** Group label as written in the log (mapped by the assignment rule), when the log has one. */
    group: z.string().optional(),
    /** Covered surface (seed 000 Table 2: `context-gc`, `skill-gc`). */
    surface: z.string().optional(),
    inputTokens: tokens,
    cachedInputTokens: tokens,
    cacheWriteTokens: tokens,
    outputTokens: tokens,
    model: z.string().optional(),
  })
  .refine((row) => row.cachedInputTokens + row.cacheWriteTokens <= row.inputTokens, {
    message: "cachedInputTokens + cacheWriteTokens ≤ inputTokens (inputTokens counts the whole prompt)",
    path: ["cachedInputTokens"],
  });
export type UsageRow = z.infer<typeof UsageRowSchema>;

/** A problem in the input, located exactly: 1-based line, the column (header name or JSON key), what was expected. */
export interface UsageIssue {
  line: number;
  column?: string;
  expected: string;
  /** What was found (truncated), when there was something. */
  found?: string;
  message: string;
}

/** Formats "line 12, column input_tokens: expected …, found …" for CLI and logs. */
export function formatUsageIssue(issue: UsageIssue): string {
  const where = issue.column !== undefined ? `line ${issue.line}, column ${issue.column}` : `line ${issue.line}`;
  return `${where}: ${issue.message}`;
}

import { z } from "zod";
import { FORMAT_IDS } from "../../trace/model";
import type { SessionSummary } from "./session-summary";
import { WORKLOADS } from "./workload";

/**
 * A saved suite filter (issue 4: "any saved filter (format, model, tool mix, length)"):
 * serialisable, every field optional, all given fields must hold; a list field holds when any of
 * its values does. The studio stores it (named) and copies it into a run's settings; the CLI
 * builds it from `--filter` (lib/evaluation/suites/suite-filter-text.ts). Both match through `matchesSummary`.
 */
const count = (what: string) =>
  z
    .number({ message: `${what} must be a number` })
    .int(`${what} must be a whole number`)
    .nonnegative(`${what} must be 0 or more`);

export const SuiteFilterSchema = z
  .object({
    formats: z
      .array(z.enum(FORMAT_IDS, { message: `format must be one of ${FORMAT_IDS.join(", ")}` }))
      .min(1, "pick at least one format")
      .optional(),
    /** The session used a model whose name contains one of these (case-insensitive). */
    models: z.array(z.string().trim().min(1, "a model name cannot be empty")).min(1, "give at least one model").optional(),
    /** The session has a result of one of these tools (normalised or raw name, case-insensitive). */
    tools: z.array(z.string().trim().min(1, "a tool name cannot be empty")).min(1, "give at least one tool").optional(),
    /** The session's dominant tool class (lib/evaluation/suites/workload.ts) is one of these. */
    workloads: z
      .array(z.enum(WORKLOADS, { message: `workload must be one of ${WORKLOADS.join(", ")}` }))
      .min(1, "pick at least one workload")
      .optional(),
    minMessages: count("minMessages").optional(),
    maxMessages: count("maxMessages").optional(),
    minTokens: count("minTokens").optional(),
    maxTokens: count("maxTokens").optional(),
    /** The trace recorded at least one native compaction (true) or none (false). */
    hasNativeCompaction: z.boolean().optional(),
  })
  .superRefine((filter, ctx) => {
    for (const [min, max] of [
      ["minMessages", "maxMessages"],
      ["minTokens", "maxTokens"],
    ] as const) {
      const low = filter[min];
      const high = filter[max];
      if (low !== undefined && high !== undefined && low > high)
        ctx.addIssue({ code: "custom", path: [max], message: `${max} (${high}) is below ${min} (${low})` });
    }
  });
export type SuiteFilter = z.infer<typeof SuiteFilterSchema>;

/** Does one session's summary satisfy the filter? */
export function matchesSummary(summary: SessionSummary, filter: SuiteFilter): boolean {
  if (filter.formats && !(filter.formats as readonly string[]).includes(summary.format)) return false;
  if (filter.models && !filter.models.some((m) => summary.models.some((used) => used.toLowerCase().includes(m.toLowerCase())))) return false;
  if (filter.tools && !filter.tools.some((t) => summary.tools.includes(t.toLowerCase()))) return false;
  if (filter.workloads && !filter.workloads.includes(summary.workload)) return false;
  if (filter.minMessages !== undefined && summary.messages < filter.minMessages) return false;
  if (filter.maxMessages !== undefined && summary.messages > filter.maxMessages) return false;
  if (filter.minTokens !== undefined && summary.tokens < filter.minTokens) return false;
  if (filter.maxTokens !== undefined && summary.tokens > filter.maxTokens) return false;
  if (filter.hasNativeCompaction !== undefined && filter.hasNativeCompaction !== summary.nativeCompactions > 0) return false;
  return true;
}

/** `{ "field.path": [messages] }` from a failed parse: the located errors forms and actions return. */
export function filterFieldErrors(error: z.ZodError, prefix = ""): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) (out[[prefix, ...issue.path.map(String)].filter(Boolean).join(".") || "filter"] ??= []).push(issue.message);
  return out;
}

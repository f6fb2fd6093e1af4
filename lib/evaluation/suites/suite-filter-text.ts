import { FORMAT_IDS, type FormatId } from "../../trace/model";
import { SuiteFilterSchema, type SuiteFilter } from "./suite-filter";
import { WORKLOADS } from "./workload";

/**
 * The text form of a suite filter, for `tracefold eval --filter` and for showing a saved filter as
 * the command line that reproduces it:
 *
 *   format=claude-code,workload=shell,minMessages=50
 *
 * Comma-separated `key=value` pairs. Repeating a list key adds an alternative
 * (`workload=shell,workload=file` is shell OR file); the keys still all have to hold. Keys:
 * `format` (a format id, or its unambiguous prefix with `-` or `_`: `claude-code`, `codex`),
 * `model` (substring of a model name), `tool` (normalised or raw tool name), `workload`,
 * `minMessages`, `maxMessages`, `minTokens`, `maxTokens` (whole numbers) and `nativeCompaction`
 * (`true` / `false`). Anything else is refused with a message naming the pair.
 */
export const FILTER_KEYS = ["format", "model", "tool", "workload", "minMessages", "maxMessages", "minTokens", "maxTokens", "nativeCompaction"] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

/** A filter text that does not parse; the message names the offending pair or value. */
export class SuiteFilterSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SuiteFilterSyntaxError";
  }
}

const LIST_FIELD = { format: "formats", model: "models", tool: "tools", workload: "workloads" } as const;
const NUMBER_KEYS = new Set<FilterKey>(["minMessages", "maxMessages", "minTokens", "maxTokens"]);

/** Parses the text form; throws SuiteFilterSyntaxError (unknown key, bad number, min above max, …). */
export function parseSuiteFilterText(text: string): SuiteFilter {
  const pairs = text
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
  if (pairs.length === 0)
    throw new SuiteFilterSyntaxError("the filter is empty; expected key=value pairs separated by commas, e.g. format=claude-code,minMessages=50");
  const raw: Record<string, unknown> = {};
  const seen = new Set<string>();
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new SuiteFilterSyntaxError(`expected key=value, got ${JSON.stringify(pair)}`);
    const key = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    if (!(FILTER_KEYS as readonly string[]).includes(key))
      throw new SuiteFilterSyntaxError(`unknown filter key ${JSON.stringify(key)}; expected one of ${FILTER_KEYS.join(", ")}`);
    if (value === "") throw new SuiteFilterSyntaxError(`filter key ${key} needs a value`);
    const k = key as FilterKey;
    if (k in LIST_FIELD) {
      const field = LIST_FIELD[k as keyof typeof LIST_FIELD];
      const list = (raw[field] as string[] | undefined) ?? [];
      if (k === "workload" && !(WORKLOADS as readonly string[]).includes(value))
        throw new SuiteFilterSyntaxError(`unknown workload ${JSON.stringify(value)}; expected one of ${WORKLOADS.join(", ")}`);
      const item = k === "format" ? resolveFormat(value) : value;
      if (!list.includes(item)) list.push(item);
      raw[field] = list;
      continue;
    }
    if (seen.has(k)) throw new SuiteFilterSyntaxError(`filter key ${k} is given twice`);
    seen.add(k);
    if (NUMBER_KEYS.has(k)) {
      if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)))
        throw new SuiteFilterSyntaxError(`filter key ${k} must be a whole number, got ${JSON.stringify(value)}`);
      raw[k] = Number(value);
    } else {
      if (value !== "true" && value !== "false")
        throw new SuiteFilterSyntaxError(`filter key nativeCompaction must be true or false, got ${JSON.stringify(value)}`);
      raw.hasNativeCompaction = value === "true";
    }
  }
  const parsed = SuiteFilterSchema.safeParse(raw);
  if (!parsed.success) throw new SuiteFilterSyntaxError(parsed.error.issues.map((i) => i.message).join("; "));
  return parsed.data;
}

/** The text form of a filter (canonical key order; format ids in full). Parses back to the same filter. */
export function formatSuiteFilterText(filter: SuiteFilter): string {
  const pairs: string[] = [];
  for (const key of FILTER_KEYS) {
    if (key in LIST_FIELD) for (const v of filter[LIST_FIELD[key as keyof typeof LIST_FIELD]] ?? []) pairs.push(`${key}=${v}`);
    else if (key === "nativeCompaction") {
      if (filter.hasNativeCompaction !== undefined) pairs.push(`nativeCompaction=${filter.hasNativeCompaction}`);
    } else {
      const value = filter[key as "minMessages"];
      if (value !== undefined) pairs.push(`${key}=${value}`);
    }
  }
  return pairs.join(",");
}

/** A format id, or the single id it is a prefix of (`claude-code` → `claude_code_jsonl`). */
function resolveFormat(value: string): FormatId {
  const v = value.toLowerCase().replaceAll("-", "_");
  const exact = FORMAT_IDS.find((id) => id === v);
  if (exact) return exact;
  const candidates = FORMAT_IDS.filter((id) => id.startsWith(`${v}_`));
  if (candidates.length === 1) return candidates[0]!;
  if (candidates.length > 1) throw new SuiteFilterSyntaxError(`format ${JSON.stringify(value)} is ambiguous: ${candidates.join(", ")}`);
  throw new SuiteFilterSyntaxError(`unknown format ${JSON.stringify(value)}; expected one of ${FORMAT_IDS.join(", ")}`);
}

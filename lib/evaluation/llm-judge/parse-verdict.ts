import { canonicalObjectId } from "../judge/object-ids";
import { DimensionScoreSchema, JUDGE_DIMENSIONS, JudgeOutputSchema, type JudgeOutput, type JudgeVerdict } from "../judge/verdict-schema";
import { extractJsonObject } from "./extract-json";
import { failure, unknownKeys, zodIssues, type AnswerIssue, type ParseOutcome } from "./issues";

/**
 * Strict parser for the single-packet judge's answer: seed 000's Listing 3, validated with the
 * shared schema (lib/evaluation/verdict-schema.ts), plus what that schema leaves implicit but our
 * contract states:
 * - no keys beyond Listing 3's, at any level (a misspelt field must not be dropped silently);
 * - overall_score within 0–5 like the dimension scores;
 * - failure_culprit is null when valid is true;
 * - failure_culprit.target_id names an object the packet showed (`knownIds`), written in full or
 *   short form; it is returned in full form (`read:3` → `function:read:3`).
 * The result is the shared `JudgeVerdict` with `noImpact = valid` (as the dependency judge sets
 * it); whether `uncertain` verdicts count is the metric's decision, not the parser's.
 */
export interface VerdictParseOptions {
  /** Object ids in the packet; omitted → culprit ids are only checked for shape. */
  knownIds?: readonly string[];
}

const TOP_KEYS = Object.keys(JudgeOutputSchema.shape);
const DIMENSION_KEYS = Object.keys(DimensionScoreSchema.shape);

export function parseJudgeVerdict(text: string, options: VerdictParseOptions = {}): ParseOutcome<JudgeVerdict> {
  const extracted = extractJsonObject(text);
  if (!extracted.ok) return failure(extracted.error.code, [{ path: "", message: extracted.error.message }]);
  const raw = extracted.value;
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return failure("schema", [{ path: "", message: "expected a JSON object" }]);
  const record = raw as Record<string, unknown>;
  const strayKeys = [
    ...unknownKeys(record, TOP_KEYS, ""),
    ...unknownKeys(record.dimension_scores, JUDGE_DIMENSIONS, "dimension_scores"),
    ...JUDGE_DIMENSIONS.flatMap((d) =>
      unknownKeys((record.dimension_scores as Record<string, unknown> | undefined)?.[d], DIMENSION_KEYS, `dimension_scores.${d}`),
    ),
    ...unknownKeys(record.failure_culprit, ["target_id"], "failure_culprit"),
  ];
  const parsed = JudgeOutputSchema.safeParse(raw);
  if (!parsed.success || strayKeys.length) return failure("schema", [...(parsed.success ? [] : zodIssues(parsed.error)), ...strayKeys]);
  const output = parsed.data;
  const issues: AnswerIssue[] = [];
  if (!Number.isFinite(output.overall_score) || output.overall_score < 0 || output.overall_score > 5) {
    issues.push({ path: "overall_score", message: `must be within 0–5, got ${output.overall_score}` });
  }
  let culprit = output.failure_culprit;
  if (culprit) {
    if (output.valid) issues.push({ path: "failure_culprit", message: "must be null when valid is true" });
    const resolved = canonicalId(culprit.target_id.trim());
    if (!resolved)
      issues.push({ path: "failure_culprit.target_id", message: `"${culprit.target_id}" is not an object id (conversation:user:<k> or function:<tool>:<n>)` });
    else if (options.knownIds && !options.knownIds.includes(resolved))
      issues.push({ path: "failure_culprit.target_id", message: `"${culprit.target_id}" is not an object in the packet` });
    else culprit = { target_id: resolved };
  }
  if (issues.length) return failure("semantic", issues);
  const verdict: JudgeVerdict = { ...(output satisfies JudgeOutput), failure_culprit: culprit, noImpact: output.valid };
  return { ok: true, value: verdict, wrapped: extracted.wrapped };
}

/** Full form of a written object id (`user:5` → `conversation:user:5`), or undefined. */
export function canonicalId(written: string): string | undefined {
  return canonicalObjectId(written);
}

import { z } from "zod";
import { extractJsonObject } from "./extract-json";
import { failure, unknownKeys, zodIssues, type ParseOutcome } from "./issues";

/**
 * The A/B judge's answer: seed 000's Listing 4. Field names are a public contract (stored with
 * each adjudication). `verdict` refers to the sides as the judge saw them (A, B), not to policies;
 * `ab-judge.ts` maps it back.
 */
export const AB_VERDICTS = ["A_better", "B_better", "tie"] as const;
export type AbVerdictLabel = (typeof AB_VERDICTS)[number];

export const AbJudgeOutputSchema = z.strictObject({
  verdict: z.enum(AB_VERDICTS),
  summary: z.string().trim().min(1, "must not be empty"),
  rationale: z.string().trim().min(1, "must not be empty"),
  stronger_aspects: z.array(z.string()),
  risks: z.array(z.string()),
  confidence: z.number().min(0, "must be within 0–1").max(1, "must be within 0–1"),
});
export type AbJudgeOutput = z.infer<typeof AbJudgeOutputSchema>;

const KEYS = Object.keys(AbJudgeOutputSchema.shape);

/**
 * Strict parser: one JSON object (bare, fenced or inside prose — see extract-json.ts) with exactly
 * Listing 4's keys; confidence is a probability in [0, 1] (a percentage like 85 is rejected, not
 * rescaled); summary and rationale say something. Every problem is reported with its path.
 */
export function parseAbVerdict(text: string): ParseOutcome<AbJudgeOutput> {
  const extracted = extractJsonObject(text);
  if (!extracted.ok) return failure(extracted.error.code, [{ path: "", message: extracted.error.message }]);
  const raw = extracted.value;
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return failure("schema", [{ path: "", message: "expected a JSON object" }]);
  const parsed = AbJudgeOutputSchema.safeParse(raw);
  if (!parsed.success) {
    const stray = unknownKeys(raw, KEYS, "");
    const issues = zodIssues(parsed.error).filter((i) => !(i.path === "" && stray.length > 0 && /unrecognized/i.test(i.message)));
    return failure("schema", [...issues, ...stray]);
  }
  return { ok: true, value: parsed.data, wrapped: extracted.wrapped };
}

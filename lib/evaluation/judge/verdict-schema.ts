import { z } from "zod";
import { FAILURE_CATEGORY_IDS, type FailureCategory } from "../../scenario/failure-categories";
import { DEPENDENCY_KINDS, DEPENDENCY_STATUSES } from "./types";

/**
 * The judge output every judge of a replay cut returns: seed 000's Listing 3 exactly, plus the
 * evidence behind it and the binary no-impact result the metrics count. The deterministic
 * dependency judge and the LLM judge share it, so stored verdicts, the studio and the metrics
 * read one shape. Field names are a public contract (snake_case as in Listing 3).
 */
export const JUDGE_DIMENSIONS = ["goal_retention", "evidence_retention", "continuation_readiness", "compression_safety"] as const;
export type JudgeDimension = (typeof JUDGE_DIMENSIONS)[number];

export const DimensionScoreSchema = z.object({
  score: z.number().min(0).max(5),
  verdict: z.enum(["pass", "warn", "fail"]),
});
export type DimensionScore = z.infer<typeof DimensionScoreSchema>;

/** Listing 3 as written: what an LLM judge is asked to emit and what is parsed from it. */
export const JudgeOutputSchema = z.object({
  valid: z.boolean(),
  uncertain: z.boolean(),
  overall_score: z.number(),
  summary: z.string(),
  dimension_scores: z.object({
    goal_retention: DimensionScoreSchema,
    evidence_retention: DimensionScoreSchema,
    continuation_readiness: DimensionScoreSchema,
    compression_safety: DimensionScoreSchema,
  }),
  failure_culprit: z.object({ target_id: z.string() }).nullable(),
});
export type JudgeOutput = z.infer<typeof JudgeOutputSchema>;

const PartRefSchema = z.object({ message: z.number().int().nonnegative(), part: z.number().int().nonnegative() });

/**
 * Verdicts stored before the three-verdict judge said `recoverable` (routed fold) and `missing`;
 * they read as `restorable` and `lost`.
 */
const LEGACY_STATUS: Record<string, string> = { recoverable: "restorable", missing: "lost" };

/** One dependency as evidence. Locations are optional: an LLM judge may name values only. */
export const EvidenceDependencySchema = z.object({
  id: z.string(),
  value: z.string(),
  /** Length of the full value when `value` was shortened for storage. */
  valueLength: z.number().int().nonnegative().optional(),
  kind: z.enum(DEPENDENCY_KINDS),
  status: z.preprocess((v) => (typeof v === "string" ? (LEGACY_STATUS[v] ?? v) : v), z.enum(DEPENDENCY_STATUSES)),
  category: z.enum(FAILURE_CATEGORY_IDS as [FailureCategory, ...FailureCategory[]]).optional(),
  plantedAt: PartRefSchema.extend({ objectId: z.string().optional(), turnId: z.string().optional() }).optional(),
  usedAt: PartRefSchema.optional(),
  lostBy: z.object({ target: z.string(), action: z.string(), rule: z.string() }).optional(),
  sidecar: z.object({ target: z.string(), sha256: z.string() }).optional(),
});
export type EvidenceDependency = z.infer<typeof EvidenceDependencySchema>;

const count = z.number().int().nonnegative();
export const StatusCountsSchema = z.object({ visible: count, restorable: count, lost: count });
export type StatusCounts = z.infer<typeof StatusCountsSchema>;

export const RestoreCostSchema = z.object({ target: z.string(), sha256: z.string(), tokens: count, cost: count });

export const JudgeEvidenceSchema = z.object({
  /** Which judge produced the verdict (`dependency`, `llm:<model>`). */
  judge: z.string(),
  counts: z.preprocess(
    (v) => {
      if (!v || typeof v !== "object" || "lost" in v) return v;
      const { recoverable, missing, ...rest } = v as Record<string, unknown>;
      return { ...rest, restorable: recoverable, lost: missing };
    },
    z.object({
      total: z.number().int().nonnegative(),
      visible: z.number().int().nonnegative(),
      restorable: z.number().int().nonnegative(),
      lost: z.number().int().nonnegative(),
      byCategory: z.record(z.string(), z.number().int().nonnegative()),
      /** Per dependency kind, how many were visible / restorable / lost (the sensitivity variants). */
      byKind: z.record(z.string(), StatusCountsSchema).optional(),
    }),
  ),
  /** Sidecars the future restores (each once) and what each costs; absent for an LLM judge. */
  restores: z.array(RestoreCostSchema).optional(),
  /** Lost first, then restorable, then visible; capped (see `omitted`). */
  dependencies: z.array(EvidenceDependencySchema),
  /** Dependencies left out of `dependencies` by the cap (counts stay complete). */
  omitted: z.number().int().nonnegative(),
});
export type JudgeEvidence = z.infer<typeof JudgeEvidenceSchema>;

/**
 * The shared verdict: Listing 3 + optional evidence + the binary results the metrics count.
 * `noImpact` is the headline (for the dependency judge: nothing the future needed is lost —
 * visible or restorable, seed 000's "visible or recoverable"); `visibleNoImpact` (everything
 * visible, no restore needed) and `restorableNoImpact` (nothing lost) are the dependency judge's
 * two strict/lenient readings, absent for an LLM judge.
 */
export const JudgeVerdictSchema = JudgeOutputSchema.extend({
  evidence: JudgeEvidenceSchema.optional(),
  noImpact: z.boolean(),
  visibleNoImpact: z.boolean().optional(),
  restorableNoImpact: z.boolean().optional(),
});
export type JudgeVerdict = z.infer<typeof JudgeVerdictSchema>;

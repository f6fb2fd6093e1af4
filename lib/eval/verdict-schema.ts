import { z } from "zod";
import { FAILURE_CATEGORY_IDS, type FailureCategory } from "../scenario/failure-categories";
import { DEPENDENCY_KINDS } from "./types";

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

/** One dependency as evidence. Locations are optional: an LLM judge may name values only. */
export const EvidenceDependencySchema = z.object({
  id: z.string(),
  value: z.string(),
  /** Length of the full value when `value` was shortened for storage. */
  valueLength: z.number().int().nonnegative().optional(),
  kind: z.enum(DEPENDENCY_KINDS),
  status: z.enum(["visible", "recoverable", "missing"]),
  category: z.enum(FAILURE_CATEGORY_IDS as [FailureCategory, ...FailureCategory[]]).optional(),
  plantedAt: PartRefSchema.extend({ objectId: z.string().optional(), turnId: z.string().optional() }).optional(),
  usedAt: PartRefSchema.optional(),
  lostBy: z.object({ target: z.string(), action: z.string(), rule: z.string() }).optional(),
  sidecar: z.object({ target: z.string(), sha256: z.string() }).optional(),
});
export type EvidenceDependency = z.infer<typeof EvidenceDependencySchema>;

export const JudgeEvidenceSchema = z.object({
  /** Which judge produced the verdict (`dependency`, `llm:<model>`). */
  judge: z.string(),
  counts: z.object({
    total: z.number().int().nonnegative(),
    visible: z.number().int().nonnegative(),
    recoverable: z.number().int().nonnegative(),
    missing: z.number().int().nonnegative(),
    byCategory: z.record(z.string(), z.number().int().nonnegative()),
  }),
  /** Missing first, then recoverable, then visible; capped (see `omitted`). */
  dependencies: z.array(EvidenceDependencySchema),
  /** Dependencies left out of `dependencies` by the cap (counts stay complete). */
  omitted: z.number().int().nonnegative(),
});
export type JudgeEvidence = z.infer<typeof JudgeEvidenceSchema>;

/** The shared verdict: Listing 3 + optional evidence + `noImpact` (nothing the future needed is missing). */
export const JudgeVerdictSchema = JudgeOutputSchema.extend({
  evidence: JudgeEvidenceSchema.optional(),
  noImpact: z.boolean(),
});
export type JudgeVerdict = z.infer<typeof JudgeVerdictSchema>;

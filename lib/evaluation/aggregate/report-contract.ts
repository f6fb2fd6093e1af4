import { z } from "zod";
import { LlmUsageSchema } from "../../llm/usage";

/**
 * The `tracefold eval --json` contract as zod schemas: the CLI's output is checked against them in
 * tests, and `docs/eval-report.schema.json` is generated from them (`npm run docs:schemas`; a unit
 * test fails when the file and the schemas differ). Field names are a public contract.
 *
 * Percentages are 0–100 with two decimals; intervals are Wilson 95 % intervals in percent unless
 * said otherwise. Nullable figures are null when the judge does not give them (an LLM judge names
 * no restores and no visible/restorable split).
 */
const pct = z.number();
const interval = z.tuple([z.number(), z.number()]);

export const ContractPolicySchema = z.strictObject({
  id: z.string(),
  cuts: z.number().int().nonnegative(),
  prunePct: pct.describe("mean over cuts of 1 − view tokens / prefix tokens"),
  netPrunePct: pct.nullable().describe("mean over cuts of 1 − (view tokens + restore costs) / prefix tokens"),
  noImpactPct: pct.describe("headline: cuts where no dependency was lost (visible or restorable)"),
  noImpact: z.number().int().nonnegative(),
  n: z.number().int().nonnegative(),
  ci95: interval,
  visibleNoImpactPct: pct.nullable().describe("cuts where every dependency was visible"),
  visibleCi95: interval.nullable(),
  restorableNoImpactPct: pct.nullable().describe("cuts where no dependency was lost"),
  restorableCi95: interval.nullable(),
  restoresPerCut: z.number().nullable().describe("sidecars the future restores per cut"),
  failures: z.record(z.string(), z.number().int().nonnegative()),
});
export type ContractPolicy = z.infer<typeof ContractPolicySchema>;

export const CurvePointSchema = z.strictObject({
  policy: z.string(),
  budgetPct: z.number().int().describe("the sweep's target share of the prefix removed"),
  prunePct: pct,
  netPrunePct: pct.nullable(),
  noImpactPct: pct,
  visibleNoImpactPct: pct.nullable(),
  restorableNoImpactPct: pct.nullable(),
  n: z.number().int().nonnegative(),
  ci95: interval,
});

export const MatchedSchema = z.strictObject({
  reference: z.string(),
  policies: z.array(CurvePointSchema.omit({ budgetPct: true })),
  paired: z.array(
    z.strictObject({
      policy: z.string(),
      metric: z.enum(["noImpact", "visibleNoImpact"]),
      pairs: z.number().int().nonnegative(),
      diffPts: z.number().describe("reference rate − policy rate, in points"),
      ci95: interval.describe("percentile bootstrap over sessions"),
      mcnemarP: z.number().min(0).max(1),
      sizeMatched: z
        .strictObject({
          pairs: z.number().int().nonnegative(),
          diffPts: z.number(),
          ci95: interval,
          mcnemarP: z.number().min(0).max(1),
        })
        .nullable()
        .describe(
          "the same difference over the cuts where the reference compacted and the two views are within 5% of the prefix of each other (SIZE_MATCH_TOLERANCE); null: no such cut",
        ),
    }),
  ),
});

export const SensitivitySchema = z.strictObject({
  records: z.enum(["own", "matched"]),
  holds: z.number().int().nonnegative(),
  of: z.number().int().nonnegative(),
  variants: z.array(
    z.strictObject({
      variant: z.string(),
      description: z.string(),
      rates: z.record(z.string(), z.number()),
      ranking: z.array(z.string()),
      holds: z.boolean(),
      topHolds: z.boolean(),
      swaps: z.array(z.tuple([z.string(), z.string()])),
    }),
  ),
});

const AgreementSchema = z.strictObject({
  labels: z.array(z.string()),
  matrix: z.array(z.array(z.number().int().nonnegative())).describe("rows: gold label, columns: judge label"),
  accuracy: z.strictObject({ pct, ci95: interval }),
  kappa: z.strictObject({ value: z.number(), ci95: interval }).describe("Cohen's kappa with its Wald interval"),
});

export const CalibrationSchema = AgreementSchema.extend({
  gold: z.string().describe("the gold file"),
  units: z.number().int().nonnegative().describe("gold units judged"),
  stale: z
    .array(z.strictObject({ unit: z.string(), reason: z.string() }))
    .describe("gold units that could not be judged (trace not loaded, sidecar not rebuilt)"),
  binary: AgreementSchema.describe("impact vs no impact (restorable counts as no impact), the headline's question"),
  disagreements: z.array(z.strictObject({ unit: z.string(), gold: z.string(), judge: z.string(), note: z.string() })),
});

/**
 * gold/judge-calibration.json (`npm run calibrate`): the calibration over the gold set the judge's
 * rules were chosen with, and over a held-out set labelled the same way that no rule saw.
 */
export const CalibrationReportSchema = CalibrationSchema.extend({
  judgeVersion: z.string().min(1).describe("the dependency judge version measured (lib/evaluation/judge/version.ts)"),
  holdout: CalibrationSchema,
});
export type CalibrationReport = z.infer<typeof CalibrationReportSchema>;

export const ComparisonSchema = z.strictObject({
  a: z.string(),
  b: z.string(),
  pairs: z.number().int().nonnegative(),
  both: z.number().int().nonnegative(),
  onlyA: z.number().int().nonnegative(),
  onlyB: z.number().int().nonnegative(),
  neither: z.number().int().nonnegative(),
  pValue: z.number(),
  midP: z.number(),
  diffPct: z.number().nullable(),
  diffCi95: interval,
});

export const EvalReportSchema = z.strictObject({
  suite: z.strictObject({ sessions: z.number().int().nonnegative(), cuts: z.number().int().nonnegative() }),
  judge: z.string(),
  pointers: z.enum(["semantic", "plain"]),
  policies: z.array(ContractPolicySchema),
  curves: z.array(CurvePointSchema).optional(),
  matched: MatchedSchema.optional(),
  sensitivity: z.array(SensitivitySchema).optional(),
  calibration: CalibrationSchema.optional(),
  comparison: ComparisonSchema.optional(),
  breakdown: z.record(z.string(), z.strictObject({ sessions: z.number().int(), cuts: z.number().int(), policies: z.array(ContractPolicySchema) })).optional(),
  llmUsage: LlmUsageSchema.optional().describe(
    "with --judge llm or --planner llm: the model calls per purpose (planner, judge…), their provider-reported tokens and cost — the run page's LLM usage",
  ),
});
export type EvalReportContract = z.infer<typeof EvalReportSchema>;

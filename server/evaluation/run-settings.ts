import { z } from "zod";
import { SweepLevelsSchema } from "@/lib/evaluation/cuts/budget";
import { CutLevelsSchema, DEFAULT_CUT_LEVELS } from "@/lib/evaluation/cuts/cut-levels";
import type { ReplayCutOptions } from "@/lib/evaluation/cuts/cut-protocol";
import { SuiteSpecSchema } from "@/lib/evaluation/suites/suites";
import { paramIssues } from "@/lib/compaction/policies/params";
import { findPolicy } from "@/lib/compaction/policies/registry";
import type { SuitePolicy } from "@/lib/evaluation/runner/evaluate-suite";
import { DEFAULT_POINTER_STYLE, POINTER_STYLES } from "@/lib/compaction/projection/pointers";
import { TOKENIZER_IDS } from "@/lib/tokens/tokenizer";

/**
 * The stored settings of an evaluation run (`EvalRun.settings`, JSON). Together with the session
 * ids fixed at creation they reproduce every result: the same suite, policies (+ params), judge,
 * trigger level and tokenizer give the same cuts, views and verdicts.
 *
 * - `tokenizer: "session"` counts with the tokenizer each session was imported with (what the
 *   session and replay pages show); a tokenizer id re-indexes every session with that one.
 * - `triggerLevel`: the share of the window the prefix fills at each cut (seed 000: 0.9).
 * - `cutLevels`: the token shares, in percent, the replay protocol cuts each session at (besides
 *   native compactions; lib/evaluation/cuts/cut-levels). Runs stored before it existed parse with the default
 *   50/70/90, which is what they used.
 * - `pointers`: the harness's pointer style for every fold of every policy (lib/compaction/projection/pointers):
 *   `semantic` (default; runs stored before it existed parse with it) or `plain`.
 * - `sweep`: target shares of each prefix removed, whole percents (lib/evaluation/cuts/budget's SweepLevelsSchema):
 *   every policy also runs at each of them, for the trade-off curves.
 * - `match`: a policy key of the run: every policy also compacts, at each cut, to the view size that
 *   policy reached there (the matched comparison).
 * Every policy always runs at its own settings too.
 */
export const EvalPolicySchema = z
  .object({
    id: z.string().min(1, "policy id is required"),
    params: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])).optional(),
    /** Tells two entries of one policy with different params apart (default: the id). */
    key: z
      .string()
      .min(1)
      .regex(/^[^#]+$/, "a policy key cannot contain #")
      .optional(),
  })
  .superRefine((entry, ctx) => {
    const policy = findPolicy(entry.id);
    if (!policy) return ctx.addIssue({ code: "custom", path: ["id"], message: `unknown policy ${entry.id}` });
    for (const issue of paramIssues(policy, entry.params ?? {})) ctx.addIssue({ code: "custom", path: ["params", issue.name], message: issue.message });
  });
export type EvalPolicy = z.infer<typeof EvalPolicySchema>;

export const EVAL_JUDGES = ["dependency", "llm"] as const;
export type EvalJudge = (typeof EVAL_JUDGES)[number];

export const EvalSettingsSchema = z
  .object({
    suite: SuiteSpecSchema,
    policies: z
      .array(EvalPolicySchema)
      .min(1, "pick at least one policy")
      .superRefine((entries, ctx) => {
        const keys = new Set<string>();
        entries.forEach((entry, i) => {
          const key = entry.key ?? entry.id;
          if (keys.has(key)) ctx.addIssue({ code: "custom", path: [i], message: `policy ${key} is listed twice` });
          keys.add(key);
        });
      }),
    judge: z.enum(EVAL_JUDGES, { message: "judge must be dependency or llm" }),
    // Stored as a share of the window (as the CLI's --trigger), but people type and read percents:
    // the message speaks the form's unit.
    triggerLevel: z
      .number({ message: "the trigger level is a percent of the window, e.g. 90" })
      .superRefine((share, ctx) => {
        if (!(share > 0 && share <= 1))
          ctx.addIssue({
            code: "custom",
            message: `the trigger level is a percent of the window above 0 and at most 100, got ${Math.round(share * 10_000) / 100}%`,
          });
      })
      .default(0.9),
    tokenizer: z.enum(["session", ...TOKENIZER_IDS]).default("session"),
    cutLevels: CutLevelsSchema.default([...DEFAULT_CUT_LEVELS]),
    pointers: z.enum(POINTER_STYLES, { message: "pointers must be semantic or plain" }).default(DEFAULT_POINTER_STYLE),
    sweep: SweepLevelsSchema.optional(),
    match: z.string().min(1, "name the policy to match budgets to").optional(),
  })
  .superRefine((settings, ctx) => {
    if (settings.match !== undefined && !settings.policies.some((entry) => policyKey(entry) === settings.match)) {
      ctx.addIssue({ code: "custom", path: ["match"], message: `matched budgets: ${settings.match} is not one of the chosen policies` });
    }
  });
export type EvalSettings = z.infer<typeof EvalSettingsSchema>;
export type EvalSettingsInput = z.input<typeof EvalSettingsSchema>;

/** Reads stored settings; a row that no longer parses is a broken run, reported as such. */
export function parseStoredSettings(json: string): EvalSettings {
  return EvalSettingsSchema.parse(JSON.parse(json));
}

/** The replay cut options of a run: its cut levels (every cut of a run, its results and its review items use these). */
export function runCutOptions(settings: Pick<EvalSettings, "cutLevels">): ReplayCutOptions {
  return { levels: settings.cutLevels };
}

/** The lib/evaluation policy entries of validated settings (every id was checked to exist). */
export function suitePolicies(settings: EvalSettings): SuitePolicy[] {
  return settings.policies.map((entry) => ({
    policy: findPolicy(entry.id)!,
    ...(entry.params ? { params: entry.params } : {}),
    ...(entry.key ? { key: entry.key } : {}),
  }));
}

/** Units per replay cut: each policy at its own settings, at each sweep budget, and matched. */
export function unitsPerCut(settings: Pick<EvalSettings, "policies" | "sweep" | "match">): number {
  return settings.policies.length * (1 + (settings.sweep?.length ?? 0) + (settings.match !== undefined ? 1 : 0));
}

/** The key results are stored under for a policy entry (lib/evaluation unitKey's policy segment). */
export function policyKey(entry: EvalPolicy): string {
  return entry.key ?? entry.id;
}

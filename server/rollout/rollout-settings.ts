import { z } from "zod";
import type { Policy } from "@/lib/compaction/policies/types";
import { findPolicy } from "@/lib/compaction/policies/registry";
import type { PriceChoice } from "@/lib/rollout/model-prices";
import { parseCacheTtl, parsePriceChoice } from "@/lib/rollout/price-choice";
import type { RolloutSuiteOptions } from "@/lib/rollout/rollout-suite";
import { parseTriggerLevel } from "@/lib/rollout/window";

/** The policies a new rollout compares unless told otherwise: the folding planner against pruning, folding and the control. */
export const DEFAULT_ROLLOUT_POLICIES = ["self-gc", "tool-prune", "oldest-turn", "none"] as const;
/** Sessions one rollout run may walk (the CLI has no bound). */
export const MAX_ROLLOUT_SESSIONS = 2_000;

/** A zod refinement that runs one of lib/rollout's parsers and reports its RangeError's message. */
const parsedBy = (parse: (text: string) => unknown) => (text: string, ctx: z.RefinementCtx) => {
  try {
    parse(text);
  } catch (error) {
    ctx.addIssue({ code: "custom", message: error instanceof RangeError ? error.message : String(error) });
  }
};

/** Self-GC's planner in a rollout: its rules, or the configured model (`--planner llm`). */
export const ROLLOUT_PLANNERS = ["rule-based", "llm"] as const;
export type RolloutPlanner = (typeof ROLLOUT_PLANNERS)[number];

/**
 * What a rollout run was asked for, stored with it. The CLI's flags, as text where the CLI takes
 * text (`trigger` as `--trigger`, `cacheTtl` as `--cache-ttl`, `prices` as `--prices model=…` or
 * `input=…,output=…`; empty: each session at its own model's list price; `planner` as `--planner`,
 * rule-based for runs stored before it existed; `hardLimit` as `--hard-limit`, off for runs stored
 * before it), read by the same parsers, so a run is reproduced by
 * `tracefold rollout … --policies <ids> --trigger <t> --cache-ttl <ttl> --planner <p> [--hard-limit]`.
 */
export const RolloutSettingsSchema = z
  .object({
    policies: z
      .array(z.string().min(1))
      .min(1, "pick at least one policy")
      .max(20, "at most 20 policies")
      .superRefine((ids, ctx) => {
        const unknown = ids.filter((id) => !findPolicy(id));
        if (unknown.length > 0) ctx.addIssue({ code: "custom", message: `unknown policy ${unknown.join(", ")}` });
        if (new Set(ids).size !== ids.length) ctx.addIssue({ code: "custom", message: "a policy is listed twice" });
      }),
    /** A fixed context window for every session; absent: per session, as the CLI without --window. */
    window: z.number().int("the window is a whole number of tokens").min(1_000, "the window is at least 1,000 tokens").max(10_000_000).optional(),
    trigger: z.string().trim().default("90%").superRefine(parsedBy(parseTriggerLevel)),
    cacheTtl: z.string().trim().default("5m").superRefine(parsedBy(parseCacheTtl)),
    prices: z
      .string()
      .trim()
      .max(200)
      .default("")
      .superRefine((text, ctx) => (text === "" ? undefined : parsedBy(parsePriceChoice)(text, ctx))),
    planner: z.enum(ROLLOUT_PLANNERS, { error: "the planner is rule-based or llm" }).default("rule-based"),
    hardLimit: z.boolean({ error: "the hard limit is on or off" }).default(false),
  })
  .superRefine((settings, ctx) => {
    if (settings.planner === "llm" && !settings.policies.includes("self-gc"))
      ctx.addIssue({ code: "custom", path: ["planner"], message: "the LLM planner is Self-GC's planner: add self-gc to the policies" });
  });
export type RolloutSettings = z.infer<typeof RolloutSettingsSchema>;

/** Which stored sessions a run walks: every one, or the ones picked by id. */
export const RolloutSelectionSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("all") }),
  z.object({
    kind: z.literal("sessions"),
    ids: z.array(z.string().min(1)).min(1, "pick at least one session").max(MAX_ROLLOUT_SESSIONS, `at most ${MAX_ROLLOUT_SESSIONS} sessions`),
  }),
]);
export type RolloutSelection = z.infer<typeof RolloutSelectionSchema>;

/** The run's policies, in the order asked. */
export function rolloutPolicies(settings: RolloutSettings): Policy[] {
  return settings.policies.map((id) => findPolicy(id)!);
}

/**
 * The engine's options for the settings: what `tracefold rollout` passes for the same flags. With
 * the LLM planner, Self-GC's own `planner` parameter is "llm", as `--planner llm` sets it; the model
 * client is the caller's to add (`llm`).
 */
export function rolloutOptions(settings: RolloutSettings): Omit<RolloutSuiteOptions, "onProgress" | "total"> {
  const prices: PriceChoice | undefined = settings.prices ? parsePriceChoice(settings.prices) : undefined;
  return {
    trigger: parseTriggerLevel(settings.trigger),
    cacheTtlMs: parseCacheTtl(settings.cacheTtl),
    ...(settings.window !== undefined ? { window: settings.window } : {}),
    ...(prices ? { prices } : {}),
    ...(settings.planner === "llm" ? { params: { "self-gc": { planner: "llm" } } } : {}),
    ...(settings.hardLimit ? { hardLimit: true } : {}),
  };
}

/** A stored run's settings (validated again: a row written by an older version must not run half-read). */
export function parseStoredRolloutSettings(text: string): RolloutSettings {
  return RolloutSettingsSchema.parse(JSON.parse(text));
}

import { boolParam, numParam, PolicyParamError, strParam } from "../params";
import type { PolicyParams, PolicyParamSpec } from "../types";
import { DEFAULT_CACHE_PRICES, DEFAULT_MIN_COMMIT_PRUNE } from "./commit-benefit";
import { DEFAULT_COMPRESSION_THRESHOLD } from "./rehearse";

/**
 * Parameters of the `self-gc` policy. Defaults follow seed 000: 30% compression threshold
 * (Table 6), the 0.3 immediate-commit rule, cache-aware commit on; prices are USD per million
 * tokens, `plannerCallCost` is L_GC for one LLM planner call when the endpoint reports no price (the
 * measured cost of the call, from its usage and the endpoint's prices, replaces it; the embedded
 * planner costs nothing).
 */
export const SELF_GC_PARAMS: PolicyParamSpec[] = [
  { name: "planner", default: "rule-based", description: "rule-based (embedded, no model) or llm (the configured endpoint)." },
  {
    name: "compressionThreshold",
    default: DEFAULT_COMPRESSION_THRESHOLD,
    description: "Rehearsal accepts a plan only if it prunes at least this share of the prefix.",
  },
  { name: "cacheAware", default: true, description: "Commit only when CommitBenefit > 0 and pruning clears commitMinPrune." },
  { name: "commitMinPrune", default: DEFAULT_MIN_COMMIT_PRUNE, description: "The seed's 0.3 rule: below this pruning rate a plan stays pending." },
  { name: "nFuture", default: 20, description: "N_future: model calls expected to reuse the prefix after the commit." },
  { name: "cacheHitRate", default: 0.9, description: "Share of a call's prefix read from the provider cache." },
  { name: "priceInput", default: DEFAULT_CACHE_PRICES.inputPerMTok, description: "Input price, USD per million tokens." },
  { name: "priceCacheRead", default: DEFAULT_CACHE_PRICES.cacheReadPerMTok, description: "Cache-read price, USD per million tokens." },
  { name: "priceCacheWrite", default: DEFAULT_CACHE_PRICES.cacheWritePerMTok, description: "Cache-write price, USD per million tokens." },
  {
    name: "plannerCallCost",
    default: 0.01,
    description:
      "L_GC: cost of one LLM planner call in USD when its endpoint has no prices set (else the measured cost counts; the rule-based planner costs 0).",
  },
  { name: "plannerMaxTokens", default: 2_000, description: "Output budget of the LLM planner call." },
  { name: "foldMinTokens", default: 300, description: "Rule-based planner: fold bodies of at least this many tokens (smaller ones are kept)." },
  { name: "maskMinTokens", default: 200, description: "Rule-based planner: mask logs of at least this many tokens." },
  { name: "turnFoldMinTokens", default: 1_500, description: "Rule-based planner: fold a resolved user turn whole from this size." },
  { name: "recentShare", default: 0.15, description: "Rule-based planner: newest share of the prefix kept as the working set." },
  {
    name: "targetShare",
    default: 0.6,
    description: "Rule-based planner: folds are added, safest first, until the plan is estimated to remove this share of the prefix.",
  },
  { name: "triggerRatio", default: 0.9, description: "Budget trigger: a governance round fires when the prefix reaches this share of the window." },
];

export type PlannerChoice = "rule-based" | "llm";

export interface SelfGcSettings {
  planner: PlannerChoice;
  compressionThreshold: number;
  cacheAware: boolean;
  commitMinPrune: number;
  nFuture: number;
  cacheHitRate: number;
  prices: { inputPerMTok: number; cacheReadPerMTok: number; cacheWritePerMTok: number };
  plannerCallCost: number;
  plannerMaxTokens: number;
  rules: { foldMinTokens: number; maskMinTokens: number; turnFoldMinTokens: number; recentShare: number; targetShare: number };
}

export function readSelfGcSettings(params: PolicyParams): SelfGcSettings {
  const planner = strParam(params, "planner");
  if (planner !== "rule-based" && planner !== "llm") {
    throw new PolicyParamError(`self-gc parameter planner must be "rule-based" or "llm", got ${JSON.stringify(planner)}`);
  }
  const share = (name: string) => {
    const value = numParam(params, name);
    if (value < 0 || value > 1) throw new PolicyParamError(`self-gc parameter ${name} must be between 0 and 1, got ${value}`);
    return value;
  };
  return {
    planner,
    compressionThreshold: share("compressionThreshold"),
    cacheAware: boolParam(params, "cacheAware"),
    commitMinPrune: share("commitMinPrune"),
    nFuture: numParam(params, "nFuture"),
    cacheHitRate: share("cacheHitRate"),
    prices: {
      inputPerMTok: numParam(params, "priceInput"),
      cacheReadPerMTok: numParam(params, "priceCacheRead"),
      cacheWritePerMTok: numParam(params, "priceCacheWrite"),
    },
    plannerCallCost: numParam(params, "plannerCallCost"),
    plannerMaxTokens: numParam(params, "plannerMaxTokens"),
    rules: {
      foldMinTokens: numParam(params, "foldMinTokens"),
      maskMinTokens: numParam(params, "maskMinTokens"),
      turnFoldMinTokens: numParam(params, "turnFoldMinTokens"),
      recentShare: share("recentShare"),
      targetShare: share("targetShare"),
    },
  };
}

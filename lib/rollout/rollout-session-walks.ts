import type { Policy, PolicyParams } from "../compaction/policies/types";
import { recordingLlmClient, type LlmRecording } from "../llm/recorded-replies";
import type { Prices } from "./billed-cost";
import { DEFAULT_PRICE_CHOICE, pricesFor } from "./model-prices";
import { plannerPricesFor, plannerRoundCost } from "./planner-rounds";
import { rolloutFigures, type PricedRollout } from "./rollout-figures";
import { rolloutSession, type RolloutOptions, type RolloutSessionResult } from "./rollout-session";
import type { RolloutItem, RolloutReport, RolloutSessionReport, RolloutSuiteOptions } from "./rollout-report";
import { defaultSimWindow, DEFAULT_SIM_TRIGGER } from "./window";

/**
 * A session's walk as a job stores it between sessions: everything `rolloutFigures` sums. The judged
 * rounds keep only their number and message (their checked dependencies and sidecars, which hold
 * whole payloads, are not needed once the lost steps and restores are settled).
 */
export interface StoredRolloutWalk {
  result: Omit<RolloutSessionResult, "rounds"> & { rounds: { round: number; message: number }[] };
  prices?: Prices;
  plannerPrices?: Prices;
}

/** One session under every policy: its report (as `rolloutSuite` lists it) and the walks its pooled figures add. */
export interface RolloutSessionWalks {
  report: RolloutSessionReport;
  walks: StoredRolloutWalk[];
  /**
   * Per policy id, the model's answers during its walk, for the policies that asked one (self-gc
   * with the LLM planner): stored with the session, they let the studio repeat the walk — the view
   * at a call — with `replayingLlmClient`, without asking the model again. Absent: none asked.
   */
  llmReplies?: Record<string, LlmRecording>;
}

/**
 * One session under every policy — the window, trigger, parameters, prices, judge and model client
 * of the options — as `rolloutSuite` walks each of its sessions, and as the studio's rollout job
 * does when it persists each session before the next (it resumes after a restart). Pooling the
 * stored walks in order with `poolRolloutWalks` gives `rolloutSuite`'s report, because that is how
 * `rolloutSuite` builds it (tests/db/rollout-runs.test.ts holds the studio and the CLI equal).
 * `onWalk` is told after each policy's walk (progress).
 */
export async function rolloutSessionWalks(
  item: RolloutItem,
  policies: readonly Policy[],
  options: Omit<RolloutSuiteOptions, "onProgress" | "total"> = {},
  onWalk?: () => void | Promise<void>,
): Promise<RolloutSessionWalks> {
  const choice = options.prices ?? DEFAULT_PRICE_CHOICE;
  const { window, model, price } = sessionBilling(item, options);
  const report: RolloutSessionReport = {
    session: item.session.id,
    format: item.session.format,
    ...(item.source ? { source: item.source } : {}),
    window,
    model,
    priced: price?.label ?? null,
    policies: [],
  };
  const walks: StoredRolloutWalk[] = [];
  const llmReplies: Record<string, LlmRecording> = {};
  for (const policy of policies) {
    const recorder = options.llm ? recordingLlmClient(options.llm, "planner") : undefined;
    const walkOptions = policyWalkOptions(item, policy, recorder ? { ...options, llm: recorder.client } : options, window, price);
    const result = await rolloutSession(item.session, policy, walkOptions);
    if (recorder && recorder.recording.replies.length) llmReplies[policy.id] = recorder.recording;
    const plannerPrices = plannerPricesFor(result.plannerRounds, choice);
    const walk: PricedRollout = { result, ...(price ? { prices: price.prices } : {}), ...(plannerPrices ? { plannerPrices } : {}) };
    report.policies.push({
      ...rolloutFigures(policy.id, [walk]),
      firstLosses: result.lostSteps.slice(0, 5).map((s) => ({ call: s.call, message: s.message, values: s.lost.map((l) => l.value) })),
      series: result.calls.map((c) => [c.without.input, c.with.input, c.compacted ? 1 : 0, c.restoredTokens]),
      ...(result.plannerRounds.length ? { plannerRounds: result.plannerRounds.map((r) => ({ ...r, cost: plannerRoundCost(r, plannerPrices) ?? null })) } : {}),
    });
    walks.push(storeWalk(walk));
    await onWalk?.();
  }
  return { report, walks, ...(Object.keys(llmReplies).length ? { llmReplies } : {}) };
}

/**
 * A session's window (the options' fixed one, else `defaultSimWindow` at the trigger), its first
 * model and the price it is billed at under the options' price choice: what every policy's walk of
 * the session shares.
 */
export function sessionBilling(item: RolloutItem, options: Pick<RolloutSuiteOptions, "trigger" | "window" | "prices">) {
  const window = options.window ?? defaultSimWindow(item.session, item.tokenizer, options.trigger ?? DEFAULT_SIM_TRIGGER);
  const model = item.session.models[0] ?? null;
  return { window, model, price: pricesFor(model ?? undefined, options.prices ?? DEFAULT_PRICE_CHOICE) };
}

/**
 * The options one policy's walk of a session gets in a rollout: the policy's parameter overrides,
 * the trigger (on policies that have one), the judge, prices, cache lifetime and model client. One
 * function for the suite and for `rolloutViewAt`, so a re-walked call is the call the run measured.
 */
export function policyWalkOptions(
  item: RolloutItem,
  policy: Policy,
  options: Omit<RolloutSuiteOptions, "onProgress" | "total">,
  window: number,
  price: ReturnType<typeof pricesFor>,
): RolloutOptions {
  const hasTrigger = policy.params.some((p) => p.name === "triggerRatio");
  const params: PolicyParams = {
    ...(options.params?.[policy.id] ?? {}),
    ...(hasTrigger && options.trigger !== undefined ? { triggerRatio: options.trigger } : {}),
  };
  return {
    window,
    tokenizer: item.tokenizer,
    params,
    judge: options.judge ?? true,
    ...(options.hardLimit ? { hardLimit: true } : {}),
    ...(price ? { prices: price.prices } : {}),
    ...(options.cacheTtlMs !== undefined ? { cacheTtlMs: options.cacheTtlMs } : {}),
    ...(options.llm ? { llm: options.llm } : {}),
  };
}

/** A walk without the judged rounds' dependencies and sidecars (what `rolloutFigures` never reads). */
export function storeWalk(walk: PricedRollout): StoredRolloutWalk {
  const { rounds, ...rest } = walk.result;
  return {
    result: { ...rest, rounds: rounds.map((r) => ({ round: r.round, message: r.message })) },
    ...(walk.prices ? { prices: walk.prices } : {}),
    ...(walk.plannerPrices ? { plannerPrices: walk.plannerPrices } : {}),
  };
}

/** A stored walk as `rolloutFigures` takes it; the rounds come back with no dependencies or sidecars. */
export function restoreWalk(stored: StoredRolloutWalk): PricedRollout {
  const rounds = stored.result.rounds.map((r) => ({ ...r, toOriginal: (m: number) => m, checked: [], sidecars: [] }));
  return {
    result: { ...stored.result, rounds },
    ...(stored.prices ? { prices: stored.prices } : {}),
    ...(stored.plannerPrices ? { plannerPrices: stored.plannerPrices } : {}),
  };
}

/**
 * `rolloutSuite`'s report from sessions walked one at a time: the sessions' reports in order, and
 * per policy the figures of its walks over every session, summed in the sessions' order (the sums
 * are floating point, so the order is part of "the same numbers").
 */
export function poolRolloutWalks(
  sessions: readonly RolloutSessionWalks[],
  policyIds: readonly string[],
  options: Pick<RolloutSuiteOptions, "trigger" | "window" | "hardLimit"> = {},
): RolloutReport {
  return {
    trigger: options.trigger ?? DEFAULT_SIM_TRIGGER,
    window: options.window ?? null,
    hardLimit: options.hardLimit === true,
    policies: policyIds.map((id, i) =>
      rolloutFigures(
        id,
        sessions.map((s) => restoreWalk(s.walks[i]!)),
      ),
    ),
    sessions: sessions.map((s) => s.report),
  };
}

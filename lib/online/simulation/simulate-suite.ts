import { buildContextIndex } from "../../compaction/context/objects";
import type { Policy, PolicyParams } from "../../compaction/policies/types";
import type { Tokenizer } from "../../tokens/tokenizer";
import type { FormatId, Session } from "../../trace/model";
import { billedCost, type Prices } from "../../rollout/billed-cost";
import { rolloutSession, type RolloutSessionResult } from "../../rollout/rollout-session";
import { callStarts } from "../../rollout/continue-from-view";
import { DEFAULT_SIM_TRIGGER, defaultSimWindow } from "../../rollout/window";

export interface SuiteSimSession {
  session: Session;
  tokenizer: Tokenizer;
  /** Where the session came from (a file path, an upload name); reported, never read. */
  source?: string;
}

export interface SimulateSuiteOptions {
  /** A fixed context window for every session; absent: per session, see `defaultSimWindow`. */
  window?: number;
  /** Budget trigger share of the window (0 < t ≤ 1); set as the policy's `triggerRatio` when it has one. */
  trigger?: number;
  params?: PolicyParams;
  /** With prices, each side's billed cost (cache reads and writes at their prices) is reported. */
  prices?: Prices;
  cacheTtlMs?: number;
  /** Sessions the items will give, for progress when they come from an async source. */
  total?: number;
  /** Called after each session; awaiting it lets a server yield the event loop between sessions. */
  onSession?: (done: number, total: number, sessionId: string) => void | Promise<void>;
}

/** Figures for one session or the pooled suite: calls weigh equally, as on an online curve. */
export interface SimFigures {
  calls: number;
  meanInputTokens: { without: number; with: number };
  /** 100 × (1 − mean with / mean without), two decimals; null without calls. */
  reductionPct: number | null;
  compactions: number;
  /** Commits that re-wrote tokens the provider would otherwise have read from cache. */
  cacheBreaks: number;
  cacheBreakTokens: number;
  /** Calls whose step needed a value the committed view had lost (the rollout's judge; `tracefold rollout`'s lostSteps). */
  lostSteps: number;
  /** 100 × lostSteps / calls, two decimals; null without calls. */
  lostStepsPer100: number | null;
  /** Folded values restored from sidecars at their first use. */
  restores: number;
  /** USD, only when prices were given. */
  cost?: { without: number; with: number };
}

export interface SimSessionReport extends SimFigures {
  session: string;
  format: FormatId;
  source?: string;
  window: number;
  /** Per call: [prompt tokens without, with, 1 when a commit happened right before it]. */
  series: [number, number, 0 | 1][];
}

export interface SimSuiteReport {
  policy: string;
  trigger: number;
  /** The fixed window, or null when each session got its own (`defaultSimWindow`). */
  window: number | null;
  sessions: SimSessionReport[];
  pooled: SimFigures & { sessions: number };
  /** The expected online curve by call position: mean prompt at the k-th call of the sessions that reach it. */
  curve: { call: number; without: number; with: number; sessions: number }[];
}

/**
 * Simulates one policy over a suite of sessions (`rolloutSession` on each, every commit judged and restores counted as in `tracefold rollout`, in order; an async
 * source lets a server load one session at a time) and pools the per-call series: the CLI's `tracefold simulate` and the studio's *Simulate from traces* both call
 * this, so they print the same numbers for the same sessions.
 */
export async function simulateSuite(
  items: Iterable<SuiteSimSession> | AsyncIterable<SuiteSimSession>,
  policy: Policy,
  options: SimulateSuiteOptions = {},
): Promise<SimSuiteReport> {
  const trigger = options.trigger ?? DEFAULT_SIM_TRIGGER;
  const hasTrigger = policy.params.some((p) => p.name === "triggerRatio");
  const params: PolicyParams = { ...(options.params ?? {}), ...(hasTrigger && options.trigger !== undefined ? { triggerRatio: trigger } : {}) };
  const sessions: SimSessionReport[] = [];
  const total = options.total ?? (Array.isArray(items) ? items.length : Number.NaN);
  let i = 0;
  for await (const item of items) {
    const window = options.window ?? defaultSimWindow(item.session, item.tokenizer, trigger);
    const result = await rolloutSession(item.session, policy, {
      window,
      tokenizer: item.tokenizer,
      params,
      ...(options.prices ? { prices: options.prices } : {}),
      ...(options.cacheTtlMs !== undefined ? { cacheTtlMs: options.cacheTtlMs } : {}),
    });
    sessions.push({
      session: item.session.id,
      format: item.session.format,
      ...(item.source ? { source: item.source } : {}),
      window,
      ...figuresOf([result], options.prices),
      series: result.calls.map((c) => [c.without.input, c.with.input, c.compacted ? 1 : 0]),
    });
    await options.onSession?.(++i, total, item.session.id);
  }
  return {
    policy: policy.id,
    trigger,
    window: options.window ?? null,
    sessions,
    pooled: { sessions: sessions.length, ...pool(sessions, options.prices) },
    curve: curveOf(sessions),
  };
}

/** Sums a session's (or a suite's) figures are made of; `figures` turns them into means and rates. */
interface SimTotals {
  calls: number;
  without: number;
  withPolicy: number;
  compactions: number;
  cacheBreaks: number;
  cacheBreakTokens: number;
  lostSteps: number;
  restores: number;
  costWithout: number;
  costWith: number;
}

const noTotals = (): SimTotals => ({
  calls: 0,
  without: 0,
  withPolicy: 0,
  compactions: 0,
  cacheBreaks: 0,
  cacheBreakTokens: 0,
  lostSteps: 0,
  restores: 0,
  costWithout: 0,
  costWith: 0,
});

function figuresOf(results: readonly RolloutSessionResult[], prices: Prices | undefined): SimFigures {
  const t = noTotals();
  for (const r of results) {
    t.lostSteps += r.lostSteps.length;
    t.restores += r.restores.length;
    for (const c of r.calls) {
      t.calls++;
      t.without += c.without.input;
      t.withPolicy += c.with.input;
      if (prices) {
        t.costWithout += billedCost({ calls: 1, input: c.without.input, cached: c.without.cached, write: c.without.write, output: 0 }, prices);
        t.costWith += billedCost({ calls: 1, input: c.with.input, cached: c.with.cached, write: c.with.write, output: 0 }, prices);
      }
    }
    t.compactions += r.compactions.length;
    for (const e of r.compactions) if (e.cacheBreakTokens > 0) (t.cacheBreaks++, (t.cacheBreakTokens += e.cacheBreakTokens));
  }
  return figures(t, prices !== undefined);
}

function pool(sessions: readonly SimSessionReport[], prices: Prices | undefined): SimFigures {
  const t = noTotals();
  for (const s of sessions) {
    t.calls += s.calls;
    t.lostSteps += s.lostSteps;
    t.restores += s.restores;
    t.compactions += s.compactions;
    t.cacheBreaks += s.cacheBreaks;
    t.cacheBreakTokens += s.cacheBreakTokens;
    for (const [w, p] of s.series) ((t.without += w), (t.withPolicy += p));
    if (s.cost) ((t.costWithout += s.cost.without), (t.costWith += s.cost.with));
  }
  return figures(t, prices !== undefined);
}

const round2 = (x: number) => Math.round(x * 100) / 100;
const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

function figures(t: SimTotals, priced: boolean): SimFigures {
  const meanWithout = t.calls ? t.without / t.calls : 0;
  const meanWith = t.calls ? t.withPolicy / t.calls : 0;
  return {
    calls: t.calls,
    meanInputTokens: { without: round2(meanWithout), with: round2(meanWith) },
    reductionPct: t.calls && meanWithout > 0 ? round2(100 * (1 - meanWith / meanWithout)) : null,
    compactions: t.compactions,
    cacheBreaks: t.cacheBreaks,
    cacheBreakTokens: t.cacheBreakTokens,
    lostSteps: t.lostSteps,
    lostStepsPer100: t.calls ? round2((100 * t.lostSteps) / t.calls) : null,
    restores: t.restores,
    ...(priced ? { cost: { without: round6(t.costWithout), with: round6(t.costWith) } } : {}),
  };
}

function curveOf(sessions: readonly SimSessionReport[]): SimSuiteReport["curve"] {
  const longest = Math.max(0, ...sessions.map((s) => s.series.length));
  const out: SimSuiteReport["curve"] = [];
  for (let k = 0; k < longest; k++) {
    let n = 0,
      without = 0,
      withPolicy = 0;
    for (const s of sessions) {
      const point = s.series[k];
      if (point) (n++, (without += point[0]), (withPolicy += point[1]));
    }
    out.push({ call: k + 1, without: round2(without / n), with: round2(withPolicy / n), sessions: n });
  }
  return out;
}

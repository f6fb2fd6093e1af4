import { defaultSimWindow, DEFAULT_SIM_TRIGGER } from "./window";
import type { Policy, PolicyParams } from "../compaction/policies/types";
import type { Tokenizer } from "../tokens/tokenizer";
import type { FormatId, Session } from "../trace/model";
import { DEFAULT_PRICE_CHOICE, pricesFor, type PriceChoice } from "./model-prices";
import { rolloutFigures, type PricedRollout, type RolloutFigures } from "./rollout-figures";
import { rolloutSession } from "./rollout-session";

export interface RolloutItem {
  session: Session;
  tokenizer: Tokenizer;
  /** Where the session came from (a file path, an upload name); reported, never read. */
  source?: string;
}

export interface RolloutSuiteOptions {
  /** A fixed context window for every session; absent: per session, `defaultSimWindow`. */
  window?: number;
  /** Budget trigger share of the window; set as `triggerRatio` on the policies that have one. */
  trigger?: number;
  /** Per policy id: parameter overrides. */
  params?: Record<string, PolicyParams>;
  prices?: PriceChoice;
  cacheTtlMs?: number;
  /** Judge each commit (default true). */
  judge?: boolean;
  /** Sessions the items will give, for progress when they come from an async source. */
  total?: number;
  /** Called after each session × policy walk (`done` counts walks). */
  onProgress?: (done: number, total: number, sessionId: string) => void | Promise<void>;
}

/** One session's figures under each policy, and where it lost something first. */
export interface RolloutSessionReport {
  session: string;
  format: FormatId;
  source?: string;
  window: number;
  model: string | null;
  /** The price-table entry (or the fixed price) the session was billed at; null: unpriced. */
  priced: string | null;
  policies: (RolloutFigures & {
    /** The first calls that lost a dependency (call index, original message, values), at most 5. */
    firstLosses: { call: number; message: number; values: string[] }[];
    /** Per call: [prompt tokens without, with, 1 when a commit happened right before it, tokens restored before it]. */
    series: [number, number, 0 | 1, number][];
  })[];
}

export interface RolloutReport {
  trigger: number;
  window: number | null;
  policies: RolloutFigures[];
  sessions: RolloutSessionReport[];
}

/**
 * Walks every session under every policy (`rolloutSession`) and pools the figures per policy —
 * what `tracefold rollout` prints. Sessions come one at a time (an async source lets a server load
 * them lazily); each session is billed at its own model's prices.
 */
export async function rolloutSuite(
  items: Iterable<RolloutItem> | AsyncIterable<RolloutItem>,
  policies: readonly Policy[],
  options: RolloutSuiteOptions = {},
): Promise<RolloutReport> {
  const trigger = options.trigger ?? DEFAULT_SIM_TRIGGER;
  const choice = options.prices ?? DEFAULT_PRICE_CHOICE;
  const walks = new Map<string, PricedRollout[]>(policies.map((p) => [p.id, []]));
  const sessions: RolloutSessionReport[] = [];
  const total = (options.total ?? (Array.isArray(items) ? items.length : Number.NaN)) * policies.length;
  let done = 0;
  for await (const item of items) {
    const window = options.window ?? defaultSimWindow(item.session, item.tokenizer, trigger);
    const model = item.session.models[0] ?? null;
    const price = pricesFor(model ?? undefined, choice);
    const report: RolloutSessionReport = {
      session: item.session.id,
      format: item.session.format,
      ...(item.source ? { source: item.source } : {}),
      window,
      model,
      priced: price?.label ?? null,
      policies: [],
    };
    for (const policy of policies) {
      const hasTrigger = policy.params.some((p) => p.name === "triggerRatio");
      const params: PolicyParams = {
        ...(options.params?.[policy.id] ?? {}),
        ...(hasTrigger && options.trigger !== undefined ? { triggerRatio: trigger } : {}),
      };
      const result = await rolloutSession(item.session, policy, {
        window,
        tokenizer: item.tokenizer,
        params,
        judge: options.judge ?? true,
        ...(price ? { prices: price.prices } : {}),
        ...(options.cacheTtlMs !== undefined ? { cacheTtlMs: options.cacheTtlMs } : {}),
      });
      const walk: PricedRollout = { result, ...(price ? { prices: price.prices } : {}) };
      walks.get(policy.id)!.push(walk);
      report.policies.push({
        ...rolloutFigures(policy.id, [walk]),
        firstLosses: result.lostSteps.slice(0, 5).map((s) => ({ call: s.call, message: s.message, values: s.lost.map((l) => l.value) })),
        series: result.calls.map((c) => [c.without.input, c.with.input, c.compacted ? 1 : 0, c.restoredTokens]),
      });
      await options.onProgress?.(++done, total, item.session.id);
    }
    sessions.push(report);
  }
  return { trigger, window: options.window ?? null, policies: policies.map((p) => rolloutFigures(p.id, walks.get(p.id)!)), sessions };
}

import type { Policy } from "../compaction/policies/types";
import type { RolloutItem, RolloutReport, RolloutSuiteOptions } from "./rollout-report";
import { poolRolloutWalks, rolloutSessionWalks, type RolloutSessionWalks } from "./rollout-session-walks";

export type { RolloutItem, RolloutReport, RolloutSessionReport, RolloutSuiteOptions } from "./rollout-report";

/**
 * Walks every session under every policy (`rolloutSession`, through `rolloutSessionWalks`) and pools
 * the figures per policy — what `tracefold rollout` prints. Sessions come one at a time (an async
 * source lets a server load them lazily); each session is billed at its own model's prices. Only each
 * walk's figures are kept between sessions (`storeWalk`), not its judged dependencies or sidecars.
 */
export async function rolloutSuite(
  items: Iterable<RolloutItem> | AsyncIterable<RolloutItem>,
  policies: readonly Policy[],
  options: RolloutSuiteOptions = {},
): Promise<RolloutReport> {
  const sessions: RolloutSessionWalks[] = [];
  const total = (options.total ?? (Array.isArray(items) ? items.length : Number.NaN)) * policies.length;
  let done = 0;
  for await (const item of items) {
    sessions.push(await rolloutSessionWalks(item, policies, options, () => options.onProgress?.(++done, total, item.session.id)));
  }
  return poolRolloutWalks(
    sessions,
    policies.map((p) => p.id),
    options,
  );
}

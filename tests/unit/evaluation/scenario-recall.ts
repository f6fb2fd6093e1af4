import { buildContextIndex, type ContextIndex } from "../../../lib/compaction/context/objects";
import { replayCuts } from "../../../lib/evaluation/cuts/cut-protocol";
import { extractDependencies } from "../../../lib/evaluation/judge/dependencies";
import type { Dependency } from "../../../lib/evaluation/judge/types";
import { FAILURE_CATEGORY_IDS, generateScenario, WORKLOAD_IDS, type FailureCategory, type PlantedDependency, type Scenario } from "../../../lib/scenario";
import { cachedTokenizer } from "../../../lib/tokens";
import { cutBefore } from "./fixtures";

/**
 * Measures dependency extraction against the scenario generator's planted ground truth.
 *
 * Cuts: the protocol's replay cuts plus, for every planted dependency, the last safe cut before the
 * step that uses it. A planted dependency is *expected* at a cut when it was planted before the cut,
 * used at or after it, and no future tool result or user message repeats it before the use (the
 * re-discovery rule). It is *recovered* when an extracted dependency covers its anchor (contains
 * it, or is contained in it and at least half as long) and is used no later than the planted use.
 * Precision: extracted dependencies that are a planted anchor, contain one or lie inside one / all
 * extracted (an unplanted dependency is often real — a pricing URL the final table cites, a file
 * path reused — so this is a floor).
 */
export interface RecallReport {
  scenarios: number;
  cuts: number;
  byCategory: Record<FailureCategory, { expected: number; recovered: number; recall: number }>;
  extracted: number;
  planted: number;
  precision: number;
}

export function scenarioSuite(seeds = [1, 2, 3, 4]): { scenario: Scenario; index: ContextIndex }[] {
  const tokenizer = cachedTokenizer("o200k");
  const out: { scenario: Scenario; index: ContextIndex }[] = [];
  for (const seed of seeds) {
    for (const workload of WORKLOAD_IDS) {
      const scenario = generateScenario({ workload, seed, ...(seed % 2 === 0 ? { targetTokens: 80_000 } : {}) });
      out.push({ scenario, index: buildContextIndex(scenario.session, tokenizer) });
    }
  }
  return out;
}

export const covers = (value: string, anchor: string): boolean => value.includes(anchor) || (anchor.includes(value) && value.length * 2 >= anchor.length);

export function isExpected(scenario: Scenario, planted: PlantedDependency, cut: number): boolean {
  if (planted.plantedAt.message >= cut || planted.usedAt.message < cut) return false;
  return !planted.alsoAt.some(
    (ref) => ref.message >= cut && ref.message < planted.usedAt.message && scenario.session.messages[ref.message]!.role !== "assistant",
  );
}

export function findRecovered(dependencies: readonly Dependency[], planted: PlantedDependency): Dependency | undefined {
  return dependencies.find((d) => covers(d.value, planted.anchor) && d.usedAt.message <= planted.usedAt.message);
}

export function measureRecall(suite = scenarioSuite()): RecallReport {
  const byCategory = Object.fromEntries(FAILURE_CATEGORY_IDS.map((c) => [c, { expected: 0, recovered: 0, recall: 0 }])) as RecallReport["byCategory"];
  let cuts = 0;
  let extracted = 0;
  let planted = 0;
  for (const { scenario, index } of suite) {
    const { session, groundTruth } = scenario;
    const cutSet = new Set(replayCuts(session, index).map((c) => c.cut));
    for (const d of groundTruth) cutSet.add(cutBefore(session, d.usedAt.message));
    for (const cut of cutSet) {
      cuts++;
      const { dependencies } = extractDependencies(session, index, cut);
      extracted += dependencies.length;
      planted += dependencies.filter((d) => groundTruth.some((g) => d.value.includes(g.anchor) || g.anchor.includes(d.value))).length;
      for (const g of groundTruth) {
        if (!isExpected(scenario, g, cut)) continue;
        byCategory[g.category].expected++;
        if (findRecovered(dependencies, g)) byCategory[g.category].recovered++;
      }
    }
  }
  for (const entry of Object.values(byCategory)) entry.recall = entry.expected ? entry.recovered / entry.expected : 0;
  return { scenarios: suite.length, cuts, byCategory, extracted, planted, precision: extracted ? planted / extracted : 0 };
}

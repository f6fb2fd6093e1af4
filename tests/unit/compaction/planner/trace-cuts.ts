import { safeCutPoints } from "../../../../lib/compaction/policies/cut-points";
import { protectedSet } from "../../../../lib/compaction/projection/protect";
import type { PlannerInput } from "../../../../lib/compaction/planner/types";
import { cachedTokenizer } from "../../../../lib/tokens/cache";
import type { AnalyzedSession } from "../../../../lib/analysis/analyze";
import { loadEveryTrace } from "../../../helpers/load-traces";

export const traceTokenizer = cachedTokenizer("o200k");

/** The replay protocol's cuts (as in the invariant test): prefix at 50/70/90%, and native compactions. */
export function sampleCuts(s: AnalyzedSession): number[] {
  const cuts = safeCutPoints(s.session);
  const total = s.index.prefixTokens.at(-1)!;
  const picked = new Set<number>();
  for (const share of [0.5, 0.7, 0.9]) {
    const cut = cuts.find((k) => s.index.prefixTokens[k]! >= share * total);
    if (cut !== undefined) picked.add(cut);
  }
  for (const c of s.session.compactions) {
    const cut = cuts.filter((k) => k <= c.beforeMessage).at(-1);
    if (cut !== undefined) picked.add(cut);
  }
  return [...picked];
}

export interface TraceCut {
  where: string;
  path: string;
  analyzed: AnalyzedSession;
  cut: number;
  input: PlannerInput;
}

/** Every real trace (../shared/traces and the imported files of traces-new) at every sampled cut, with the planner input for it. */
export async function allTraceCuts(): Promise<TraceCut[]> {
  const out: TraceCut[] = [];
  for (const { entry, sessions } of await loadEveryTrace()) {
    for (const analyzed of sessions) {
      for (const cut of sampleCuts(analyzed)) {
        const protect = protectedSet(analyzed.session.messages, analyzed.index, cut);
        out.push({
          where: `${entry.path}#${analyzed.session.id} cut ${cut}`,
          path: entry.path,
          analyzed,
          cut,
          input: { session: analyzed.session, index: analyzed.index, cut, protect, tokenizer: traceTokenizer },
        });
      }
    }
  }
  return out;
}

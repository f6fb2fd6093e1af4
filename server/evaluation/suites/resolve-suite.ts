import { selectSummaries, type SuiteSpec } from "@/lib/evaluation/suites/suites";
import type { Db } from "../../db/client";
import type { EvalSettings } from "../run-settings";
import { listSessionIdsInOrder, loadSessionSummaries } from "./session-summaries";

export interface ResolvedSuite {
  /** TraceSession ids in evaluation order. */
  sessionIds: string[];
  /** Replay cuts over those sessions (session × cut points, before policies). */
  cuts: number;
}

/**
 * The stored sessions a suite selects and their replay cuts, from cached session summaries and
 * lib/evaluation's selectSummaries — the function `tracefold eval` selects with too — so creating a
 * run, or counting what a filter matches while it is being built, parses no trace that was
 * summarised before.
 */
export async function resolveSuite(db: Db, suite: SuiteSpec, tokenizer: EvalSettings["tokenizer"] = "session"): Promise<ResolvedSuite> {
  const summaries = await loadSessionSummaries(db, await listSessionIdsInOrder(db), tokenizer);
  const chosen = selectSummaries(summaries, suite);
  return { sessionIds: chosen.map((s) => s.id), cuts: chosen.reduce((n, s) => n + s.cuts, 0) };
}

import type { JudgedCut } from "@/lib/review";
import type { Db } from "../db/client";
import { parseStoredSettings } from "../evals/run-settings";

/**
 * An evaluation run's stored results as lib/review JudgedCut rows (one per cut × policy; the run's
 * judge names the judge: `dependency`, or `llm`). Failed units carry no verdict and are left out.
 */
export async function loadJudgedCuts(db: Db, runId: string): Promise<JudgedCut[]> {
  const run = await db.evalRun.findUnique({ where: { id: runId }, select: { settings: true } });
  if (!run) return [];
  const judge = parseStoredSettings(run.settings).judge;
  const rows = await db.evalResult.findMany({
    where: { runId, error: null },
    select: { sessionId: true, cut: true, policy: true, noImpact: true },
    orderBy: [{ sessionId: "asc" }, { cut: "asc" }, { policy: "asc" }],
  });
  return rows.map((r) => ({ runId, sessionId: r.sessionId, cut: r.cut, policy: r.policy, judge, noImpact: r.noImpact }));
}

import type { JudgedCut } from "@/lib/review";
import type { Db } from "../db/client";
import { parseStoredSettings } from "../evaluation/run-settings";

/**
 * An evaluation run's stored results as lib/review JudgedCut rows (one per cut × policy; the run's
 * judge names the judge: `dependency`, or `llm`). Failed units carry no verdict and are left out.
 * A finished run's results no longer change, so they are kept per (run, finishedAt) — the
 * agreement reads them on every refresh, thousands of rows for a large run; a run still going (or
 * run again, which moves finishedAt) is read afresh. Bounded: the least recently used run goes first.
 */
export async function loadJudgedCuts(db: Db, runId: string): Promise<JudgedCut[]> {
  const run = await db.evalRun.findUnique({ where: { id: runId }, select: { settings: true, status: true, finishedAt: true } });
  if (!run) return [];
  const key = run.status === "done" && run.finishedAt ? `${runId}@${run.finishedAt.getTime()}` : null;
  const hit = key ? kept.get(key) : undefined;
  if (key && hit) {
    kept.delete(key);
    kept.set(key, hit);
    return hit;
  }
  const judge = parseStoredSettings(run.settings).judge;
  const rows = await db.evalResult.findMany({
    // Each policy at its own settings (what the run's results table shows); budgeted units stay out of review queues.
    where: { runId, error: null, budget: null },
    select: { sessionId: true, cut: true, policy: true, noImpact: true },
    orderBy: [{ sessionId: "asc" }, { cut: "asc" }, { policy: "asc" }],
  });
  const cuts = rows.map((r) => ({ runId, sessionId: r.sessionId, cut: r.cut, policy: r.policy, judge, noImpact: r.noImpact }));
  if (key) {
    kept.set(key, cuts);
    if (kept.size > KEPT_RUNS) kept.delete(kept.keys().next().value!);
  }
  return cuts;
}

const KEPT_RUNS = 20;
const kept = new Map<string, JudgedCut[]>();

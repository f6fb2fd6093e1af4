import type { EvaluationRecord } from "@/lib/evaluation/aggregate/aggregate";
import type { StatusCounts } from "@/lib/evaluation/judge/verdict-schema";
import type { Db } from "../db/client";

/**
 * A run's stored results as lib/evaluation EvaluationRecords: the exact input of aggregatePolicies,
 * aggregateCurves, aggregateMatched, judgeSensitivity and comparePolicies, so the studio's figures
 * are the CLI's for the same units. Every budget is loaded (split them with lib/evaluation's `recordsAt`);
 * a field the row does not hold (an LLM judge's unit, a row stored before these columns existed)
 * is absent, exactly as toRecord leaves it. Failed units (the policy or judge threw) carry no
 * measurement and are left out; the run counts them separately. `policy` is the stored policy key
 * (the id unless one policy ran twice with different params).
 */
export async function loadRunRecords(db: Db, runId: string, where: { policy?: string } = {}): Promise<EvaluationRecord[]> {
  const rows = await db.evalResult.findMany({
    where: { runId, error: null, ...(where.policy ? { policy: where.policy } : {}) },
    select: {
      policy: true,
      sessionId: true,
      cut: true,
      prefixTokens: true,
      tokensAfter: true,
      pruneRate: true,
      noImpact: true,
      missingByCategory: true,
      budget: true,
      netPruneRate: true,
      restores: true,
      visibleNoImpact: true,
      restorableNoImpact: true,
      byKind: true,
    },
    orderBy: [{ sessionId: "asc" }, { cut: "asc" }, { policy: "asc" }],
  });
  await inRunOrder(db, runId, rows);
  return rows.map((row) => ({
    policy: row.policy,
    sessionId: row.sessionId,
    cut: row.cut,
    prefixTokens: row.prefixTokens,
    tokensAfter: row.tokensAfter,
    pruneRate: row.pruneRate,
    noImpact: row.noImpact,
    missingByCategory: JSON.parse(row.missingByCategory) as Record<string, number>,
    ...(row.budget !== null ? { budget: row.budget } : {}),
    ...(row.netPruneRate !== null ? { netPruneRate: row.netPruneRate } : {}),
    ...(row.restores !== null ? { restores: row.restores } : {}),
    ...(row.visibleNoImpact !== null ? { visibleNoImpact: row.visibleNoImpact } : {}),
    ...(row.restorableNoImpact !== null ? { restorableNoImpact: row.restorableNoImpact } : {}),
    ...(row.byKind !== null ? { byKind: JSON.parse(row.byKind) as Record<string, StatusCounts> } : {}),
  }));
}

/**
 * Sorts rows (already by session id, cut, policy) into the run's session order — the suite as
 * resolved, which `tracefold eval` replays in file order — keeping cut and policy order within a
 * session. A session bootstrap draws clusters in order of first appearance, so the order is part
 * of the figure; the reproduction package writes its units in this order too.
 */
export async function inRunOrder<T extends { sessionId: string }>(db: Db, runId: string, rows: T[]): Promise<T[]> {
  const run = await db.evalRun.findUnique({ where: { id: runId }, select: { sessionIds: true } });
  const position = new Map(((run ? JSON.parse(run.sessionIds) : []) as string[]).map((id, i) => [id, i]));
  const rank = (id: string) => position.get(id) ?? position.size;
  return rows.sort((a, b) => rank(a.sessionId) - rank(b.sessionId));
}

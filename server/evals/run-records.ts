import type { EvaluationRecord } from "@/lib/eval/aggregate";
import type { Db } from "../db/client";

/**
 * A run's stored results as lib/eval EvaluationRecords: the exact input of aggregatePolicies and
 * comparePolicies, so the studio's figures are the CLI's for the same units. Failed units (the
 * policy or judge threw) carry no measurement and are left out; the run counts them separately.
 * `policy` is the stored policy key (the id unless one policy ran twice with different params).
 */
export async function loadRunRecords(db: Db, runId: string, where: { policy?: string } = {}): Promise<EvaluationRecord[]> {
  const rows = await db.evalResult.findMany({
    where: { runId, error: null, ...(where.policy ? { policy: where.policy } : {}) },
    select: { policy: true, sessionId: true, cut: true, prefixTokens: true, tokensAfter: true, pruneRate: true, noImpact: true, missingByCategory: true },
    orderBy: [{ sessionId: "asc" }, { cut: "asc" }, { policy: "asc" }],
  });
  return rows.map((row) => ({
    policy: row.policy,
    sessionId: row.sessionId,
    cut: row.cut,
    prefixTokens: row.prefixTokens,
    tokensAfter: row.tokensAfter,
    pruneRate: row.pruneRate,
    noImpact: row.noImpact,
    missingByCategory: JSON.parse(row.missingByCategory) as Record<string, number>,
  }));
}

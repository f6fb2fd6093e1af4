import { JudgeVerdictSchema, type EvidenceDependency } from "@/lib/evaluation/judge/verdict-schema";
import type { Db } from "../db/client";

/** Visible / restorable / lost dependencies of one unit (dependency judge). */
export interface StatusCounts {
  visible: number;
  restorable: number;
  lost: number;
}

/**
 * One cut of one policy in a run, at one budget: the drill-down row (and the link to the replay
 * page). The three readings: `visibleNoImpact` (every dependency visible), `restorableNoImpact`
 * (none lost) and the headline `noImpact`; the first two are null for an LLM judge and for rows
 * stored before they existed.
 */
export interface RunCut {
  unitKey: string;
  sessionId: string;
  sessionTitle: string;
  cut: number;
  cutReason: string;
  /** lib/evaluation budgetKey (`budget-40`, `match-self-gc`), null at the policy's own settings. */
  budget: string | null;
  targetTokens: number | null;
  window: number;
  prefixTokens: number;
  tokensAfter: number;
  prunePct: number;
  netPrunePct: number | null;
  restores: number | null;
  restoreTokens: number | null;
  noImpact: boolean;
  visibleNoImpact: boolean | null;
  restorableNoImpact: boolean | null;
  uncertain: boolean;
  counts: StatusCounts | null;
  /** Lost dependencies (the verdict's count, else the per-category sum of older rows). */
  missing: number;
  culprit: string | null;
  error: string | null;
}

const pct = (rate: number) => Math.round(rate * 10_000) / 100;

/** Every stored cut of `policy` at `budget` (null: its own settings) in a run, failed units included, by session then cut. */
export async function listRunCuts(db: Db, runId: string, policy: string, budget: string | null = null): Promise<RunCut[]> {
  const rows = await db.evalResult.findMany({ where: { runId, policy, budget }, orderBy: [{ sessionId: "asc" }, { cut: "asc" }] });
  const titles = new Map(
    (await db.traceSession.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.sessionId))] } }, select: { id: true, title: true } })).map((s) => [
      s.id,
      s.title,
    ]),
  );
  return rows.map((row) => {
    const verdict = row.error ? null : JudgeVerdictSchema.safeParse(JSON.parse(row.verdict));
    const evidence = verdict?.success ? verdict.data.evidence : undefined;
    const counts = evidence ? { visible: evidence.counts.visible, restorable: evidence.counts.restorable, lost: evidence.counts.lost } : null;
    const missing = counts?.lost ?? Object.values(JSON.parse(row.missingByCategory) as Record<string, number>).reduce((n, c) => n + c, 0);
    return {
      unitKey: row.unitKey,
      sessionId: row.sessionId,
      sessionTitle: titles.get(row.sessionId) ?? "(deleted session)",
      cut: row.cut,
      cutReason: row.cutReason,
      budget: row.budget,
      targetTokens: row.targetTokens,
      window: row.window,
      prefixTokens: row.prefixTokens,
      tokensAfter: row.tokensAfter,
      prunePct: pct(row.pruneRate),
      netPrunePct: row.netPruneRate === null ? null : pct(row.netPruneRate),
      restores: row.restores,
      restoreTokens: row.restoreTokens,
      noImpact: row.noImpact,
      visibleNoImpact: row.visibleNoImpact,
      restorableNoImpact: row.restorableNoImpact,
      uncertain: row.uncertain,
      counts,
      missing,
      culprit: verdict?.success ? (verdict.data.failure_culprit?.target_id ?? null) : null,
      error: row.error,
    };
  });
}

/** The judge's evidence for one unit: its verdict summary and each dependency it checked. */
export interface CutEvidence {
  unitKey: string;
  sessionId: string;
  cut: number;
  /** The policy key and the window the unit ran at (the replay page's link). */
  policy: string;
  window: number;
  judge: string;
  summary: string;
  noImpact: boolean;
  uncertain: boolean;
  culprit: string | null;
  budget: string | null;
  /** The three readings (see RunCut); the first two null for an LLM judge. */
  visibleNoImpact: boolean | null;
  restorableNoImpact: boolean | null;
  counts: { total: number; visible: number; restorable: number; lost: number } | null;
  /** Sidecars the future restores and their cost (dependency judge). */
  restores: { target: string; sha256: string; tokens: number; cost: number }[];
  dependencies: EvidenceDependency[];
  omitted: number;
  error: string | null;
}

export async function getCutEvidence(db: Db, runId: string, unitKey: string): Promise<CutEvidence | null> {
  const row = await db.evalResult.findUnique({ where: { runId_unitKey: { runId, unitKey } } });
  if (!row) return null;
  const parsed = row.error ? null : JudgeVerdictSchema.safeParse(JSON.parse(row.verdict));
  const verdict = parsed?.success ? parsed.data : null;
  return {
    unitKey,
    sessionId: row.sessionId,
    cut: row.cut,
    policy: row.policy,
    window: row.window,
    judge: verdict?.evidence?.judge ?? (verdict ? "llm" : "none"),
    summary: verdict?.summary ?? "",
    noImpact: row.noImpact,
    uncertain: row.uncertain,
    culprit: verdict?.failure_culprit?.target_id ?? null,
    budget: row.budget,
    visibleNoImpact: row.visibleNoImpact ?? verdict?.visibleNoImpact ?? null,
    restorableNoImpact: row.restorableNoImpact ?? verdict?.restorableNoImpact ?? null,
    counts: verdict?.evidence
      ? {
          total: verdict.evidence.counts.total,
          visible: verdict.evidence.counts.visible,
          restorable: verdict.evidence.counts.restorable,
          lost: verdict.evidence.counts.lost,
        }
      : null,
    restores: verdict?.evidence?.restores ?? [],
    dependencies: verdict?.evidence?.dependencies ?? [],
    omitted: verdict?.evidence?.omitted ?? 0,
    error: row.error ?? (parsed && !parsed.success ? "the stored verdict does not match the judge schema" : null),
  };
}

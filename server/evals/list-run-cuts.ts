import { JudgeVerdictSchema, type EvidenceDependency } from "@/lib/eval/judge/verdict-schema";
import type { Db } from "../db/client";

/** One cut of one policy in a run: the drill-down row (and the link to the replay page). */
export interface RunCut {
  unitKey: string;
  sessionId: string;
  sessionTitle: string;
  cut: number;
  cutReason: string;
  window: number;
  prefixTokens: number;
  tokensAfter: number;
  prunePct: number;
  noImpact: boolean;
  uncertain: boolean;
  missing: number;
  culprit: string | null;
  error: string | null;
}

/** Every stored cut of `policy` in a run, failed units included, by session then cut. */
export async function listRunCuts(db: Db, runId: string, policy: string): Promise<RunCut[]> {
  const rows = await db.evalResult.findMany({ where: { runId, policy }, orderBy: [{ sessionId: "asc" }, { cut: "asc" }] });
  const titles = new Map(
    (await db.traceSession.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.sessionId))] } }, select: { id: true, title: true } })).map((s) => [s.id, s.title]),
  );
  return rows.map((row) => {
    const missing = Object.values(JSON.parse(row.missingByCategory) as Record<string, number>).reduce((n, c) => n + c, 0);
    const verdict = row.error ? null : JudgeVerdictSchema.safeParse(JSON.parse(row.verdict));
    return {
      unitKey: row.unitKey,
      sessionId: row.sessionId,
      sessionTitle: titles.get(row.sessionId) ?? "(deleted session)",
      cut: row.cut,
      cutReason: row.cutReason,
      window: row.window,
      prefixTokens: row.prefixTokens,
      tokensAfter: row.tokensAfter,
      prunePct: Math.round(row.pruneRate * 10_000) / 100,
      noImpact: row.noImpact,
      uncertain: row.uncertain,
      missing,
      culprit: verdict?.success ? (verdict.data.failure_culprit?.target_id ?? null) : null,
      error: row.error,
    };
  });
}

/** The judge's evidence for one unit: its verdict summary and each dependency it checked. */
export interface CutEvidence {
  unitKey: string;
  judge: string;
  summary: string;
  noImpact: boolean;
  uncertain: boolean;
  culprit: string | null;
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
    judge: verdict?.evidence?.judge ?? (verdict ? "llm" : "none"),
    summary: verdict?.summary ?? "",
    noImpact: row.noImpact,
    uncertain: row.uncertain,
    culprit: verdict?.failure_culprit?.target_id ?? null,
    counts: verdict?.evidence ? { total: verdict.evidence.counts.total, visible: verdict.evidence.counts.visible, restorable: verdict.evidence.counts.restorable, lost: verdict.evidence.counts.lost } : null,
    restores: verdict?.evidence?.restores ?? [],
    dependencies: verdict?.evidence?.dependencies ?? [],
    omitted: verdict?.evidence?.omitted ?? 0,
    error: row.error ?? (parsed && !parsed.success ? "the stored verdict does not match the judge schema" : null),
  };
}

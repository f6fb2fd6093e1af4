import { aggregatePolicies, comparePolicies, recordsAt, type EvaluationRecord, type PolicyAggregate } from "@/lib/evaluation/aggregate/aggregate";
import { budgetKey, parseBudgetKey } from "@/lib/evaluation/cuts/budget";
import { aggregateCurves, type CurvePoint } from "@/lib/evaluation/aggregate/curves";
import type { MatchedComparison } from "@/lib/evaluation/aggregate/matched";
import { judgeSensitivity, type SensitivityReport } from "@/lib/evaluation/aggregate/sensitivity";
import type { McNemarResult } from "@/lib/stats/mcnemar";
import type { Db } from "../db/client";
import { cachedMatched } from "./matched-cache";
import { loadRunRecords } from "./run-records";
import { EvalSettingsSchema, policyKey, type EvalSettings } from "./run-settings";

/**
 * A run's figures over its stored results, with lib/evaluation's functions in the order the run listed
 * its policies — the numbers `tracefold eval --json` prints for the same units:
 * - `policies`: aggregatePolicies over the units at each policy's own settings (the CLI's
 *   `policies`), with the failed-unit count per policy;
 * - `curves`: aggregateCurves over the sweep units (the CLI's `curves`; empty without a sweep);
 * - `matched`: aggregateMatched against the run's reference (the CLI's `matched`; null without one),
 *   kept per run between polls (matched-cache.ts);
 * - `sensitivity`: judgeSensitivity of the own-settings units and, with a reference, of the
 *   matched ones (the CLI's `--sensitivity`; empty for an LLM judge, which gives no per-kind counts).
 * `budgets` lists the budget keys the run has (sweep levels ascending, then the match).
 */
export interface RunAggregates {
  policies: (PolicyAggregate & { failedUnits: number })[];
  /** Distinct (session, cut) pairs judged. */
  cuts: number;
  sessions: number;
  budgets: string[];
  curves: CurvePoint[];
  matched: (MatchedComparison & { failedUnits: Record<string, number> }) | null;
  sensitivity: SensitivityReport[];
}

export async function getRunAggregates(db: Db, runId: string): Promise<RunAggregates | null> {
  const run = await db.evalRun.findUnique({ where: { id: runId }, select: { settings: true, status: true, done: true, failed: true } });
  if (!run) return null;
  const parsed = EvalSettingsSchema.safeParse(JSON.parse(run.settings));
  const settings = parsed.success ? parsed.data : null;
  const order = settings ? settings.policies.map(policyKey) : [];
  const records = await loadRunRecords(db, runId);
  const failed = await db.evalResult.findMany({ where: { runId, NOT: { error: null } }, select: { policy: true, budget: true } });
  const failedAt = (budget: string | null) => {
    const by: Record<string, number> = {};
    for (const f of failed) if (f.budget === budget) by[f.policy] = (by[f.policy] ?? 0) + 1;
    return by;
  };
  const own = recordsAt(records, undefined);
  const ownFailed = failedAt(null);
  const reference = matchReference(settings, records);
  const matchKey = reference === undefined ? undefined : budgetKey({ kind: "match", reference });
  return {
    policies: aggregatePolicies(own, order).map((p) => ({ ...p, failedUnits: ownFailed[p.id] ?? 0 })),
    cuts: new Set(own.map((r) => `${r.sessionId}#${r.cut}`)).size,
    sessions: new Set(own.map((r) => r.sessionId)).size,
    budgets: budgetsOf(records, failed),
    curves: aggregateCurves(records, order),
    matched: reference === undefined ? null : { ...matchedOf(runId, run, records, reference, order), failedUnits: failedAt(matchKey!) },
    sensitivity: sensitivityOf(records, matchKey),
  };
}

/** The matched comparison, kept per run while its units do not change (matched-cache.ts). */
function matchedOf(
  runId: string,
  run: { status: string; done: number; failed: number },
  records: EvaluationRecord[],
  reference: string,
  order: readonly string[],
) {
  const running = run.status === "queued" || run.status === "running";
  return cachedMatched(runId, `${run.status}|${run.done}|${run.failed}|${records.length}|${reference}`, running, () => ({ records, reference, order }));
}

/** The run's reference: its settings' `match`, or (settings unreadable) the one its stored units name. */
function matchReference(settings: EvalSettings | null, records: readonly EvaluationRecord[]): string | undefined {
  if (settings) return settings.match;
  for (const r of records) {
    const budget = r.budget === undefined ? undefined : parseBudgetKey(r.budget);
    if (budget?.kind === "match") return budget.reference;
  }
  return undefined;
}

function sensitivityOf(records: readonly EvaluationRecord[], matchKey: string | undefined): SensitivityReport[] {
  const reports = [judgeSensitivity(recordsAt(records, undefined), "own")];
  if (matchKey !== undefined) reports.push(judgeSensitivity(recordsAt(records, matchKey), "matched"));
  return reports.filter((r): r is SensitivityReport => r !== undefined);
}

/** Budget keys present among the stored units: sweep levels ascending, then matched ones. */
function budgetsOf(records: readonly EvaluationRecord[], failed: readonly { budget: string | null }[]): string[] {
  const keys = new Set<string>();
  for (const r of records) if (r.budget !== undefined) keys.add(r.budget);
  for (const f of failed) if (f.budget !== null) keys.add(f.budget);
  const rank = (key: string) => {
    const b = parseBudgetKey(key);
    return b?.kind === "sweep" ? b.pct : 1_000;
  };
  return [...keys].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** McNemar's exact test of two policies of a run at their own settings, on the cuts both were judged at (b: only A had no impact, c: only B). */
export async function compareRunPolicies(
  db: Db,
  runId: string,
  a: string,
  b: string,
): Promise<(McNemarResult & { pairs: number; policyA: string; policyB: string }) | null> {
  const exists = await db.evalRun.count({ where: { id: runId } });
  if (!exists) return null;
  const records = recordsAt(await loadRunRecords(db, runId), undefined);
  return { ...comparePolicies(records, a, b), policyA: a, policyB: b };
}

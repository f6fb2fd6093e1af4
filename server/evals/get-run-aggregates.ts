import { aggregatePolicies, comparePolicies, type PolicyAggregate } from "@/lib/eval/aggregate";
import type { McNemarResult } from "@/lib/stats/mcnemar";
import type { Db } from "../db/client";
import { loadRunRecords } from "./run-records";
import { EvalSettingsSchema, policyKey } from "./run-settings";

/**
 * Per-policy figures of a run over its stored results, with lib/eval's aggregatePolicies in the
 * order the run listed its policies — the numbers `tracefold eval --json` prints for the same
 * units. Also the failed-unit count per policy (units that produced no measurement).
 */
export interface RunAggregates {
  policies: (PolicyAggregate & { failedUnits: number })[];
  /** Distinct (session, cut) pairs judged. */
  cuts: number;
  sessions: number;
}

export async function getRunAggregates(db: Db, runId: string): Promise<RunAggregates | null> {
  const run = await db.evalRun.findUnique({ where: { id: runId }, select: { settings: true } });
  if (!run) return null;
  const settings = EvalSettingsSchema.safeParse(JSON.parse(run.settings));
  const order = settings.success ? settings.data.policies.map(policyKey) : [];
  const records = await loadRunRecords(db, runId);
  const failedBy = new Map<string, number>();
  for (const f of await db.evalResult.findMany({ where: { runId, NOT: { error: null } }, select: { policy: true } })) failedBy.set(f.policy, (failedBy.get(f.policy) ?? 0) + 1);
  return {
    policies: aggregatePolicies(records, order).map((p) => ({ ...p, failedUnits: failedBy.get(p.id) ?? 0 })),
    cuts: new Set(records.map((r) => `${r.sessionId}#${r.cut}`)).size,
    sessions: new Set(records.map((r) => r.sessionId)).size,
  };
}

/** McNemar's exact test of two policies of a run on the cuts both were judged at (b: only A had no impact, c: only B). */
export async function compareRunPolicies(db: Db, runId: string, a: string, b: string): Promise<(McNemarResult & { pairs: number; policyA: string; policyB: string }) | null> {
  const exists = await db.evalRun.count({ where: { id: runId } });
  if (!exists) return null;
  const records = await loadRunRecords(db, runId);
  return { ...comparePolicies(records, a, b), policyA: a, policyB: b };
}

import { checkView } from "@/lib/eval/check-view";
import type { CheckedDependency } from "@/lib/eval/types";
import type { Db } from "../db/client";
import { loadCutContext } from "./cut-context";

/**
 * The part of a replay cut that human verdicts need from it: for each policy of the run, the judge's
 * candidate dependencies checked against that policy's view (checkView). It does not depend on any
 * label, so it is computed once per (run, session, cut) and kept: a few checked dependencies per
 * policy, small beside a whole CutContext (session, index, policy results). The agreement figure
 * needs this for every reviewed cut of a queue, so the cache holds a queue's worth of cuts (the
 * 64-entry CutContext cache would rebuild them all on every refresh once a queue outgrows it).
 * Spans a reviewer added are checked separately, against the full context (see human-verdicts).
 */
export interface CutChecks {
  cut: number;
  /** Policy key → the run's candidates checked against that policy's view, in the run's policy order. */
  policies: Map<string, CheckedDependency[]>;
}

export const CUT_CHECKS_CACHE_SIZE = 2_000;
const cache = new Map<string, Promise<CutChecks | null>>();

export function loadCutChecks(db: Db, runId: string, sessionId: string, cut: number): Promise<CutChecks | null> {
  const key = `${runId}|${sessionId}@${cut}`;
  const hit = cache.get(key);
  if (hit) {
    // Least recently used goes first: re-insert on every hit.
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const loading = build(db, runId, sessionId, cut).catch((error) => {
    cache.delete(key);
    throw error;
  });
  cache.set(key, loading);
  if (cache.size > CUT_CHECKS_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return loading;
}

async function build(db: Db, runId: string, sessionId: string, cut: number): Promise<CutChecks | null> {
  const context = await loadCutContext(db, runId, sessionId, cut);
  if (!context) return null;
  const policies = new Map<string, CheckedDependency[]>();
  for (const [policy, result] of context.results) policies.set(policy, checkView({ session: context.session, index: context.index, dependencies: context.candidates, result }));
  return { cut: context.cut, policies };
}

import type { CheckedDependency } from "@/lib/evaluation/judge/types";
import { dependencyItemId } from "@/lib/review";
import type { Db } from "../db/client";
import { loadItemContext } from "./item-context";

/**
 * The part of a replay cut that human verdicts need from it: for each policy of the run, the judge's
 * candidate dependencies checked against that policy's view (checkView). It does not depend on any
 * label, so it is computed once per (run, session, cut) and kept: a few checked dependencies per
 * policy, small beside a whole CutContext (session, index, policy results). The agreement figure
 * needs this for every reviewed cut of a queue, so the cache holds a queue's worth of cuts (the
 * 64-entry CutContext cache would rebuild them all on every refresh once a queue outgrows it).
 * The checks themselves are stored with the cut's dependency item context (computed when the queue
 * is prepared), so a miss here is one row read, not a replay.
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
  const ref = { runId, sessionId, cut };
  const context = await loadItemContext(db, runId, { queue: "dependency", id: dependencyItemId(ref), ref });
  if (!context || context.screen !== "dependency") return null;
  return { cut, policies: new Map(context.checks) };
}

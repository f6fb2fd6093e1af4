import type { ContextIndex } from "@/lib/compaction/context/objects";
import { replayCuts, windowForCut } from "@/lib/evaluation/cuts/cut-protocol";
import { extractDependencies } from "@/lib/evaluation/judge/dependencies";
import type { Dependency } from "@/lib/evaluation/judge/types";
import { runPolicy } from "@/lib/compaction/policies/run-policy";
import type { PolicyResult } from "@/lib/compaction/policies/types";
import type { Tokenizer } from "@/lib/tokens/tokenizer";
import type { Session } from "@/lib/trace/model";
import type { Db } from "../db/client";
import { loadSuiteSessions } from "../evaluation/load-suite-sessions";
import { parseStoredSettings, policyKey, runCutOptions, suitePolicies } from "../evaluation/run-settings";

/**
 * One replay cut of an evaluation run, rebuilt exactly as the run judged it: the stored session
 * (with the run's tokenizer), the dependency judge's candidates, and each policy's result at the
 * run's window (same trigger level, same params). Human verdicts and the failure / A/B screens are
 * computed from this, so a person sees and is measured against the very views the judge checked.
 * Deterministic policies only (the LLM planner is not re-run here: such a policy is left out).
 * A small per-process cache keeps a reviewer's next/previous steps cheap.
 */
export interface CutContext {
  session: Session;
  index: ContextIndex;
  tokenizer: Tokenizer;
  cut: number;
  candidates: Dependency[];
  results: Map<string, PolicyResult>;
}

const cache = new Map<string, Promise<CutContext | null>>();
const CACHE_SIZE = 64;

export function loadCutContext(db: Db, runId: string, sessionId: string, cut: number): Promise<CutContext | null> {
  const key = `${runId}|${sessionId}@${cut}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const loading = build(db, runId, sessionId, cut).catch((error) => {
    cache.delete(key);
    throw error;
  });
  cache.set(key, loading);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return loading;
}

async function build(db: Db, runId: string, sessionId: string, cut: number): Promise<CutContext | null> {
  const replay = await openSessionReplay(db, runId, sessionId);
  return replay ? replay(cut) : null;
}

/**
 * Loads a run's session once (the costly part: messages, index, tokens) and returns a function that
 * builds the CutContext of any of its replay cuts, or null when the run or session is gone. Used
 * to prepare a queue's item contexts session by session rather than reloading the session per cut.
 */
export async function openSessionReplay(db: Db, runId: string, sessionId: string): Promise<((cut: number) => Promise<CutContext | null>) | null> {
  const run = await db.evalRun.findUnique({ where: { id: runId }, select: { settings: true } });
  if (!run) return null;
  const settings = parseStoredSettings(run.settings);
  const { sessions } = await loadSuiteSessions(db, [sessionId], settings);
  const loaded = sessions[0];
  if (!loaded) return null;
  const { session, index, tokenizer } = loaded;
  const cuts = replayCuts(session, index, runCutOptions(settings));
  const entries = suitePolicies(settings);
  return async (cut) => {
    const replay = cuts.find((c) => c.cut === cut);
    if (!replay) return null;
    const window = windowForCut(replay.prefixTokens, settings.triggerLevel);
    const results = new Map<string, PolicyResult>();
    for (const [i, entry] of entries.entries()) {
      if (entry.params?.planner === "llm") continue;
      results.set(
        policyKey(settings.policies[i]!),
        await runPolicy(entry.policy, { session, index, cut, window, tokenizer, ...(entry.params ? { params: entry.params } : {}) }),
      );
    }
    return { session, index, tokenizer, cut, candidates: extractDependencies(session, index, cut).dependencies, results };
  };
}

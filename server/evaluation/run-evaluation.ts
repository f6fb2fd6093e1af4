import { replayCuts } from "@/lib/evaluation/cuts/cut-protocol";
import { evaluateSuite, type EvaluateSuiteOptions, type SuiteItem } from "@/lib/evaluation/runner/evaluate-suite";
import { createLlmJudge } from "@/lib/evaluation/llm-judge";
import { judgeUnitsWith } from "@/lib/evaluation/runner/llm-judge-unit";
import type { LlmClient } from "@/lib/llm/types";
import type { Db } from "../db/client";
import { publicMessage, PublicError } from "../errors/public-error";
import { readLlmConcurrency } from "../llm/config";
import { getLlmClient } from "../llm/effective-config";
import { parseLlmUsage, recordUsage } from "../llm/usage-recorder";
import { withSignal } from "../llm/with-signal";
import { cancelSignalFor, clearCancelSignal } from "./cancel-signals";
import { watchCancelFlag } from "./cancel-watch";
import { loadSuiteSessions, type LoadedSuiteSession } from "./load-suite-sessions";
import { runModels } from "./run-models";
import { failedRow, resultRow, type ResultRow } from "./result-rows";
import { parseStoredSettings, runCutOptions, suitePolicies } from "./run-settings";
import type { EvalRunStatus } from "./run-status";
import type { EvalSettings } from "./run-settings";
import { writeBatch, type BatchProgress } from "./write-batch";

export interface RunEvaluationOptions {
  /** Who holds the run while it executes (default: this process's runner id). */
  workerId: string;
  /** Rows per transaction (default 25); a batch is also written after `flushMs` (default 1000). */
  batchSize?: number;
  flushMs?: number;
  /** The LLM for judge=llm and planner=llm; default: the endpoint configured in the environment. */
  llm?: LlmClient | null;
  /** LLM-judged units in flight at once (default TRACEFOLD_LLM_CONCURRENCY, else 4). */
  concurrency?: number;
  /** Called after each batch is committed (progress bars, tests). */
  onBatch?: (progress: BatchProgress) => void | Promise<void>;
  /**
   * Aborted when the process stops gracefully (a job worker's SIGTERM): the run writes what it has,
   * goes back to `queued` for another worker and this call returns "queued".
   */
  signal?: AbortSignal;
}

/**
 * Executes one queued run to its end: claims it (queued → running, atomically, so two runners never
 * share a run), streams lib/evaluation's evaluateSuite over the stored session ids and settings (pointer
 * style, sweep budgets and the matched reference included: every unit kind counts in the total), skipping
 * every unit key already stored (resume), and writes results in batches, each in one transaction
 * with the run's progress and heartbeat. A cancel — this process's signal (cancel-signals.ts), or
 * the database flag, read at every batch and polled every `flushMs` (cancel-watch.ts) — aborts the
 * run's signal: the suite loop stops at once and every model call in flight is aborted, so a cancel
 * never waits for a pending answer. A cancelled run keeps what it wrote; units cut short are not
 * stored, and resume redoes them. Returns the status the run ended in, or
 * null when the run was not queued (another runner has it, or it finished).
 */
export async function runEvaluation(db: Db, runId: string, options: RunEvaluationOptions): Promise<EvalRunStatus | null> {
  const now = new Date();
  const claimed = await db.evalRun.updateMany({
    where: { id: runId, status: "queued" },
    data: { status: "running", workerId: options.workerId, heartbeatAt: now, error: null },
  });
  if (claimed.count === 0) return null;
  const run = await db.evalRun.findUniqueOrThrow({ where: { id: runId } });
  if (!run.startedAt) await db.evalRun.update({ where: { id: runId }, data: { startedAt: now } });
  try {
    return await execute(db, run, options);
  } catch (error) {
    await finish(db, runId, "failed", publicMessage(error, `evaluation run ${runId}`));
    return "failed";
  } finally {
    clearCancelSignal(runId);
  }
}

async function execute(
  db: Db,
  run: { id: string; settings: string; sessionIds: string; cancelRequested: boolean; llmUsage: string | null },
  options: RunEvaluationOptions,
): Promise<EvalRunStatus> {
  const settings = parseStoredSettings(run.settings);
  const endpoint = options.llm === undefined ? await getLlmClient(db) : (options.llm ?? undefined);
  // Every answered call's tokens and cost, per purpose, added to what earlier attempts of the run recorded.
  const recorder = endpoint ? recordUsage(endpoint, parseLlmUsage(run.llmUsage)) : undefined;
  // One stop for the run: a cancel (this process's signal or the database flag) or a graceful
  // release aborts it, which ends the suite loop at once and every model call in flight with it.
  const stop = new AbortController();
  const llm = recorder ? withSignal(recorder.client, stop.signal) : undefined;
  if (settings.judge === "llm" && !llm)
    throw new PublicError(
      "judge=llm needs an LLM endpoint: an admin sets one on Admin → settings, or set TRACEFOLD_LLM_PROVIDER, TRACEFOLD_LLM_MODEL (and TRACEFOLD_LLM_BASE_URL, TRACEFOLD_LLM_API_KEY)",
    );
  await db.evalRun.update({ where: { id: run.id }, data: runModels(settings, llm) });
  const { sessions } = await loadSuiteSessions(db, JSON.parse(run.sessionIds) as string[], settings);
  const stored = await db.evalResult.findMany({ where: { runId: run.id }, select: { unitKey: true, error: true } });
  const done = new Set(stored.map((r) => r.unitKey));
  const progress: BatchProgress = { done: stored.length, failed: stored.filter((r) => r.error !== null).length, total: undefined };
  const policies = suitePolicies(settings);
  const bySession = new Map(sessions.map((s) => [s.session.id, s]));
  const pending: ResultRow[] = [];
  let lastWrite = Date.now();
  let flagged = run.cancelRequested;
  const flush = async () => {
    flagged = (await writeBatch(db, run.id, pending.splice(0), progress)) || flagged;
    if (recorder) await db.evalRun.update({ where: { id: run.id }, data: { llmUsage: JSON.stringify(recorder.snapshot()) } });
    lastWrite = Date.now();
    await options.onBatch?.({ ...progress });
  };
  if (flagged) return finish(db, run.id, "cancelled");
  const flushMs = options.flushMs ?? 1_000;
  const cancelled = cancelSignalFor(run.id);
  const stopOn = (signal: AbortSignal) => (signal.aborted ? stop.abort() : signal.addEventListener("abort", () => stop.abort(), { once: true }));
  stopOn(cancelled);
  if (options.signal) stopOn(options.signal);
  const unwatch = watchCancelFlag(db, run.id, flushMs, () => {
    flagged = true;
    stop.abort();
  });
  const suite = {
    sessions,
    policies,
    ...runCutOptions(settings),
    tokenizerFor: (s: LoadedSuiteSession["session"]) => bySession.get(s.id)!.tokenizer,
    triggerLevel: settings.triggerLevel,
    isDone: (key: string) => done.has(key),
    pointers: settings.pointers,
    ...(settings.sweep ? { sweep: settings.sweep } : {}),
    ...(settings.match !== undefined ? { match: settings.match } : {}),
    ...(llm ? { llm } : {}),
    // judge=llm: the engine's judge sees each unit's own policy result (the policy runs once per unit);
    // up to TRACEFOLD_LLM_CONCURRENCY units are in flight, and a failing call fails its unit only.
    ...(settings.judge === "llm" && llm
      ? { judge: publicJudge(judgeUnitsWith(createLlmJudge(llm, { repairAttempts: 1 }))), concurrency: options.concurrency ?? readLlmConcurrency() }
      : {}),
    signal: stop.signal,
  };
  try {
    for await (const item of evaluateSuite(suite)) {
      progress.total = item.progress.total;
      pending.push(toRow(item, bySession, settings));
      if (pending.length >= (options.batchSize ?? 25) || Date.now() - lastWrite >= flushMs) {
        await flush();
        if (flagged) stop.abort();
      }
      await new Promise<void>((resolve) => setImmediate(resolve)); // let the server answer requests between units
    }
    // Units finished before a stop are kept; the ones it cut short were dropped, so resume redoes them.
    await flush();
    if (flagged || cancelled.aborted) return finish(db, run.id, "cancelled");
    if (options.signal?.aborted) return release(db, run.id);
    return finish(db, run.id, "done");
  } finally {
    unwatch();
    stop.abort(); // whatever ended the loop (an error too), no model call of this run outlives it
  }
}

/** A judge whose failures carry public messages only (a stored unit error is shown to users). */
function publicJudge(judge: NonNullable<EvaluateSuiteOptions["judge"]>): NonNullable<EvaluateSuiteOptions["judge"]> {
  return async (view) => {
    try {
      return await judge(view);
    } catch (error) {
      throw new PublicError(publicMessage(error, `evaluation unit ${view.key}: the LLM judge`));
    }
  };
}

function toRow(item: SuiteItem, sessions: Map<string, LoadedSuiteSession>, settings: EvalSettings): ResultRow {
  const suite = sessions.get(item.kind === "error" ? item.sessionId : item.evaluation.sessionId);
  if (item.kind === "error")
    return failedRow(item.key, item.sessionId, item.cut, cutReasonOf(suite, item.cut, settings), shareOf(suite, item.cut), item.message);
  return resultRow(item.key, item.evaluation, shareOf(suite, item.evaluation.cut));
}

function cutReasonOf(suite: LoadedSuiteSession | undefined, cut: number, settings: EvalSettings): string {
  return (suite && replayCuts(suite.session, suite.index, runCutOptions(settings)).find((c) => c.cut === cut)?.reason) ?? "unknown";
}

/** Prefix tokens at the cut over the session's tokens (ReplayCut.share). */
function shareOf(suite: LoadedSuiteSession | undefined, cut: number): number {
  const total = suite?.index.prefixTokens.at(-1) ?? 0;
  return suite && total > 0 ? (suite.index.prefixTokens[cut] ?? 0) / total : 0;
}

/** Hands a run back to the queue with its stored results (graceful stop), to be resumed elsewhere. */
async function release(db: Db, runId: string): Promise<EvalRunStatus> {
  await db.evalRun.updateMany({ where: { id: runId, status: "running" }, data: { status: "queued", workerId: null, heartbeatAt: null } });
  return "queued";
}

async function finish(db: Db, runId: string, status: EvalRunStatus, error?: string): Promise<EvalRunStatus> {
  await db.evalRun.update({ where: { id: runId }, data: { status, workerId: null, finishedAt: new Date(), ...(error !== undefined ? { error } : {}) } });
  return status;
}

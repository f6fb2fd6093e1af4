import { poolRolloutWalks, rolloutSessionWalks, type RolloutSessionWalks } from "@/lib/rollout/rollout-session-walks";
import type { Db } from "../db/client";
import { getLlmClient } from "../llm/effective-config";
import { loadSessionForWalk } from "../trace/session/load-analyzed-session";
import { parseStoredRolloutSettings, rolloutOptions, rolloutPolicies } from "./rollout-settings";
import type { RolloutStatus } from "./rollout-status";

export interface RunRolloutOptions {
  /** Who holds the run while it executes. */
  workerId: string;
  /** Heartbeat period is a quarter of this (default 2 minutes: a silent worker's run is taken back after it). */
  staleMs?: number;
  /** Aborted when the worker stops gracefully: the run keeps its stored sessions, goes back to `queued`, and this returns "queued". */
  signal?: AbortSignal;
  /** Called after each stored session (tests). */
  onSession?: (done: number, total: number) => void | Promise<void>;
}

/**
 * Executes one queued rollout run to its end: claims it (queued → running, atomically), then walks
 * its sessions in order with lib/rollout's `rolloutSessionWalks` — the per-session step of
 * `tracefold rollout`, same options — skipping sessions already stored (resume), and stores each
 * session (its report and walks) in one transaction with the run's progress and heartbeat. The cancel
 * flag is read between sessions. Once every session is stored, the walks are pooled in the run's
 * session order (`poolRolloutWalks`: exactly `rolloutSuite`'s figures) and the report is stored.
 * Sessions deleted since the run was created are skipped (counted done, not rolled out). Returns the
 * status the run ended in, or null when it was not queued (another worker has it, or it finished).
 */
export async function runRollout(db: Db, runId: string, options: RunRolloutOptions): Promise<RolloutStatus | null> {
  const now = new Date();
  const claimed = await db.rolloutRun.updateMany({
    where: { id: runId, status: "queued" },
    data: { status: "running", workerId: options.workerId, heartbeatAt: now, error: null },
  });
  if (claimed.count === 0) return null;
  const mine = { id: runId, status: "running", workerId: options.workerId };
  const beat = setInterval(
    () => void db.rolloutRun.updateMany({ where: mine, data: { heartbeatAt: new Date() } }).catch(() => undefined),
    Math.max(250, Math.floor((options.staleMs ?? 120_000) / 4)),
  );
  beat.unref();
  try {
    const run = await db.rolloutRun.findUniqueOrThrow({ where: { id: runId } });
    if (!run.startedAt) await db.rolloutRun.update({ where: { id: runId }, data: { startedAt: now } });
    return await execute(db, run, options);
  } catch (error) {
    await db.rolloutRun.updateMany({
      where: mine,
      data: { status: "failed", workerId: null, finishedAt: new Date(), error: failureMessage(runId, error) },
    });
    return "failed";
  } finally {
    clearInterval(beat);
  }
}

async function execute(db: Db, run: { id: string; settings: string; sessionIds: string }, options: RunRolloutOptions): Promise<RolloutStatus> {
  const settings = parseStoredRolloutSettings(run.settings);
  const policies = rolloutPolicies(settings);
  const engine = { ...rolloutOptions(settings), ...(settings.planner === "llm" ? { llm: await plannerClient(db) } : {}) };
  const sessionIds = JSON.parse(run.sessionIds) as string[];
  const stored = new Set(
    (await db.rolloutRun.findUniqueOrThrow({ where: { id: run.id }, select: { sessions: { select: { sessionId: true } } } })).sessions.map((s) => s.sessionId),
  );
  let done = 0;
  for (const [position, sessionId] of sessionIds.entries()) {
    if (stored.has(sessionId)) {
      done++;
      continue;
    }
    const flag = await db.rolloutRun.findUnique({ where: { id: run.id }, select: { cancelRequested: true } });
    if (!flag || flag.cancelRequested) return end(db, run.id, options.workerId, "cancelled");
    if (options.signal?.aborted) return release(db, run.id, options.workerId);
    const loaded = await loadSessionForWalk(db, sessionId);
    done++;
    if (loaded) {
      const walked = await rolloutSessionWalks(
        { session: loaded.session, tokenizer: loaded.tokenizer, source: loaded.session.messages[0]?.source.file ?? "" },
        policies,
        engine,
      );
      await db.$transaction([
        db.rolloutRunSession.create({
          data: {
            runId: run.id,
            sessionId,
            position,
            report: JSON.stringify(walked.report),
            walks: JSON.stringify(walked.walks),
            llmReplies: walked.llmReplies ? JSON.stringify(walked.llmReplies) : null,
          },
        }),
        db.rolloutRun.update({ where: { id: run.id }, data: { done, heartbeatAt: new Date() } }),
      ]);
    } else await db.rolloutRun.update({ where: { id: run.id }, data: { done, heartbeatAt: new Date() } });
    await options.onSession?.(done, sessionIds.length);
    await new Promise<void>((resolve) => setImmediate(resolve)); // let the server answer requests between sessions
  }
  const rows = await db.rolloutRunSession.findMany({ where: { runId: run.id }, orderBy: { position: "asc" }, select: { report: true, walks: true } });
  const sessions: RolloutSessionWalks[] = rows.map((r) => ({ report: JSON.parse(r.report), walks: JSON.parse(r.walks) }) as RolloutSessionWalks);
  const { sessions: _sessions, ...pooled } = poolRolloutWalks(
    sessions,
    policies.map((p) => p.id),
    engine,
  );
  await db.rolloutRun.updateMany({
    where: { id: run.id, status: "running", workerId: options.workerId },
    data: { status: "done", done: sessionIds.length, report: JSON.stringify(pooled), workerId: null, finishedAt: new Date() },
  });
  return "done";
}

/**
 * The model client of a run with the LLM planner: the endpoints in effect now (the run was refused
 * at creation without one; an admin may have removed it since, which fails the run saying so).
 */
async function plannerClient(db: Db) {
  const llm = await getLlmClient(db);
  if (!llm)
    throw new RangeError(
      "the run plans with the LLM planner and no LLM endpoint is configured any more: an admin sets one on Admin → settings, then resume the run",
    );
  return llm;
}

/** Hands a run back to the queue with its stored sessions (graceful stop), to be resumed by another worker. */
async function release(db: Db, runId: string, workerId: string): Promise<RolloutStatus> {
  await db.rolloutRun.updateMany({ where: { id: runId, status: "running", workerId }, data: { status: "queued", workerId: null, heartbeatAt: null } });
  return "queued";
}

async function end(db: Db, runId: string, workerId: string, status: RolloutStatus): Promise<RolloutStatus> {
  await db.rolloutRun.updateMany({ where: { id: runId, status: "running", workerId }, data: { status, workerId: null, finishedAt: new Date() } });
  return status;
}

/**
 * What a failed run shows: a settings error from lib/rollout's parsers says what to fix; anything else
 * is logged here and shown without internals (server/errors is not imported: it reaches server/jobs).
 */
function failureMessage(runId: string, error: unknown): string {
  if (error instanceof RangeError) return error.message;
  console.error(`rollout run ${runId} failed:`, error);
  return "the rollout failed with an internal error (the worker's log has the details); resume it to try again";
}

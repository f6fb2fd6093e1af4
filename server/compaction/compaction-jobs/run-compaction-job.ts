import { z } from "zod";
import type { LlmClient } from "@/lib/llm/types";
import type { Db } from "../../db/client";
import type { JobHandler, JobQueue } from "../../jobs/job-queue";
import { publicMessage } from "../../errors/public-error";
import { LlmError } from "../../llm/errors";
import type { BlobStore } from "../../storage/blob-store";
import { compactSession } from "../compact-session";
import { CompactRequestSchema, type CompactErrorCode } from "../compaction-api";
import { enqueueCompactionJob } from "./queue-compaction-job";

/** Compactions interrupted this many times (their worker died each time) are marked failed. */
export const MAX_COMPACTION_ATTEMPTS = 3;
/**
 * Finished compactions are kept this long, then the sweep deletes them: the page needs a job only
 * while it polls (a shared link runs the compaction again), and results hold a whole projected view.
 */
export const COMPACTION_JOB_RETENTION_MS = 7 * 24 * 60 * 60_000;
/** A worker's compaction whose heartbeat is older than this is taken back (TRACEFOLD_RUN_STALE_MS also applies). */
export const DEFAULT_COMPACTION_STALE_MS = 120_000;

export const CompactionJobPayloadSchema = z.object({ jobId: z.string().min(1, "jobId is required") });

export interface RunCompactionJobOptions {
  workerId: string;
  staleMs?: number;
  /** The model client; by default the endpoint in effect when the job runs (server/llm/effective-config.ts). */
  llm?: LlmClient;
  /** Aborted when the worker stops gracefully: the job goes back to `queued` for another worker. */
  signal?: AbortSignal;
}

export type CompactionJobEnd = "done" | "failed" | "released";

/**
 * Executes one queued compaction: claims the row (queued → running, atomically, counting the
 * attempt), runs compactSession — the same function the synchronous route calls, so the stored
 * result is the very body the request would have answered — and stores the result or the failure.
 * While it works the row's heartbeat is renewed; a worker killed mid-call stops renewing and the
 * sweep (reconcileCompactionJobs) hands the row to another worker. Every write after the claim is
 * conditional on still owning the row, so a worker that was given up on cannot overwrite the one
 * that took over. A compaction interrupted MAX_COMPACTION_ATTEMPTS times ends failed. Null when the
 * row is not queued (done, failed, or held by another worker: at-least-once delivery).
 */
export async function runCompactionJob(db: Db, store: BlobStore, jobId: string, options: RunCompactionJobOptions): Promise<CompactionJobEnd | null> {
  const row = await db.compactionJob.findUnique({ where: { id: jobId } });
  if (!row || row.status !== "queued") return null;
  if (row.attempts >= MAX_COMPACTION_ATTEMPTS) {
    const message = `the compaction was interrupted ${row.attempts} times (its worker stopped each time before the policy run ended); run it again`;
    await db.compactionJob.updateMany({
      where: { id: jobId, status: "queued" },
      data: { status: "failed", errorCode: "internal", error: message, finishedAt: new Date() },
    });
    return "failed";
  }
  const claimed = await db.compactionJob.updateMany({
    where: { id: jobId, status: "queued", attempts: row.attempts },
    data: { status: "running", workerId: options.workerId, heartbeatAt: new Date(), attempts: row.attempts + 1, error: null, errorCode: null },
  });
  if (claimed.count === 0) return null;
  const mine = { id: jobId, status: "running", workerId: options.workerId };
  const beat = setInterval(
    () => void db.compactionJob.updateMany({ where: mine, data: { heartbeatAt: new Date() } }).catch(() => undefined),
    Math.max(250, Math.floor((options.staleMs ?? DEFAULT_COMPACTION_STALE_MS) / 4)),
  );
  beat.unref();
  const fail = async (code: CompactErrorCode, message: string) => {
    await db.compactionJob.updateMany({ where: mine, data: { status: "failed", workerId: null, errorCode: code, error: message, finishedAt: new Date() } });
    return "failed" as const;
  };
  try {
    const request = CompactRequestSchema.safeParse({
      policy: row.policy,
      cut: row.cut ?? undefined,
      window: row.window ?? undefined,
      params: JSON.parse(row.params) as unknown,
    });
    if (!request.success)
      return await fail(
        "invalid_request",
        `compaction job ${jobId}: the stored request is invalid: ${request.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
      );
    // The job's signal also cancels the planner's in-flight model call: a released job pays for no answer.
    const run = compactSession(db, store, {
      sessionId: row.sessionId,
      ...request.data,
      ...(options.llm ? { llm: options.llm } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const outcome = await untilAborted(run, options.signal);
    if (outcome === ABORTED) {
      // A graceful stop is not an interruption: the attempt is given back with the row.
      await db.compactionJob.updateMany({ where: mine, data: { status: "queued", workerId: null, attempts: row.attempts } });
      return "released";
    }
    if (!outcome.ok) return await fail(outcome.code, outcome.message);
    await db.compactionJob.updateMany({ where: mine, data: { status: "done", workerId: null, result: JSON.stringify(outcome.data), finishedAt: new Date() } });
    return "done";
  } catch (error) {
    return await fail("internal", failureMessage({ ...row, id: jobId }, error));
  } finally {
    clearInterval(beat);
  }
}

const ABORTED = Symbol("aborted");

/** The run's result, or ABORTED as soon as `signal` aborts (the run, its model calls cancelled, is left to finish unobserved). */
async function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T | typeof ABORTED> {
  if (!signal) return work;
  if (signal.aborted) return ABORTED;
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<typeof ABORTED>((resolve) => {
    onAbort = () => resolve(ABORTED);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

/**
 * Says which run failed and why, as the synchronous route does ("the policy run failed: …"), with
 * the endpoint's attempts, status and (key-redacted) answer when the model call failed; an
 * unexpected error is logged and shown as `internal error (ref <id>)` (server/errors/public-error.ts).
 */
export function failureMessage(row: { id: string; policy: string; cut: number | null }, error: unknown): string {
  const where = `${row.policy}${row.cut !== null ? ` at cut ${row.cut}` : ""}`;
  if (error instanceof LlmError) {
    const { attempts, bodyExcerpt } = error.details;
    const said = bodyExcerpt ? `; it answered: ${bodyExcerpt.slice(0, 200)}` : "";
    console.error(`compaction job ${row.id} (${where}): the LLM call failed:`, error);
    return `the policy run failed (${where}): the LLM call failed after ${attempts} ${attempts === 1 ? "attempt" : "attempts"}: ${error.message}${said}`;
  }
  return `the policy run failed (${where}): ${publicMessage(error, `compaction job ${row.id} (${where})`)}`;
}

/** The `session-compact` job handler. */
export function compactionJobHandler(db: Db, store: BlobStore, options: Omit<RunCompactionJobOptions, "signal">): JobHandler<object> {
  return async (job) => {
    const { jobId } = CompactionJobPayloadSchema.parse(job.data);
    await runCompactionJob(db, store, jobId, { ...options, signal: job.signal });
  };
}

/**
 * One sweep: compactions whose worker went silent for `staleMs` go back to `queued` (their next
 * run counts another attempt), and every queued compaction gets its job (a studio that died between
 * storing the row and queueing the job, a job lost with its worker); finished ones older than
 * COMPACTION_JOB_RETENTION_MS are deleted. Returns the ids taken back.
 */
export async function reconcileCompactionJobs(db: Db, queue: JobQueue, options: { workerId: string; staleMs?: number; now?: Date }): Promise<string[]> {
  const now = options.now ?? new Date();
  await db.compactionJob.deleteMany({
    where: { status: { in: ["done", "failed"] }, finishedAt: { lt: new Date(now.getTime() - COMPACTION_JOB_RETENTION_MS) } },
  });
  const cutoff = new Date(now.getTime() - (options.staleMs ?? DEFAULT_COMPACTION_STALE_MS));
  const where = { status: "running", workerId: { not: options.workerId }, OR: [{ heartbeatAt: null }, { heartbeatAt: { lt: cutoff } }] };
  const stale = await db.compactionJob.findMany({ where, select: { id: true } });
  const recovered: string[] = [];
  for (const { id } of stale) {
    const updated = await db.compactionJob.updateMany({ where: { id, ...where }, data: { status: "queued", workerId: null } });
    if (updated.count === 1) recovered.push(id);
  }
  for (const { id } of await db.compactionJob.findMany({ where: { status: "queued" }, orderBy: { createdAt: "asc" }, select: { id: true } }))
    await enqueueCompactionJob(queue, id);
  return recovered;
}

import type { LlmClient } from "@/lib/llm/types";
import type { Db } from "../db/client";
import { staleMsFromEnv } from "../evaluation/eval-jobs";
import { runnerWorkerId } from "../evaluation/eval-runner";
import { startEvalRunner } from "../evaluation/start-eval-runner";
import type { BlobStore } from "../storage/blob-store";
import { compactionJobHandler, reconcileCompactionJobs } from "../compaction/compaction-jobs/run-compaction-job";
import { getBlobStore } from "../storage/configured-blob-store";
import { DEFAULT_BLOB_GRACE_MS, sweepUnreferencedBlobs } from "../storage/sweep-unreferenced-blobs";
import { reconcileUploadImports, uploadImportHandler } from "../trace/import/run-upload-import";
import type { JobQueue } from "../jobs/job-queue";
import { processEnv } from "@/server/env";

export interface JobWorkers {
  /** Graceful: stops taking jobs, releases or finishes the running ones (up to timeoutMs), disconnects. */
  stop(options?: { timeoutMs?: number }): Promise<void>;
}

export interface StartJobWorkersOptions {
  /** Where uploads wait for their import (default: the configured blob store). */
  store?: BlobStore;
  /** Evaluation runs executed at once (TRACEFOLD_WORKER_EVAL_CONCURRENCY, default 1). */
  evalConcurrency?: number;
  /** Upload imports executed at once (TRACEFOLD_WORKER_IMPORT_CONCURRENCY, default 1). */
  importConcurrency?: number;
  /** Studio compactions that call the LLM executed at once (TRACEFOLD_WORKER_COMPACT_CONCURRENCY, default 2). */
  compactConcurrency?: number;
  /** The model compactions call (tests inject a stub's client); default: the endpoint in effect when each job runs. */
  llm?: LlmClient;
  /** Period of the orphan / missing-job sweeps (TRACEFOLD_JOB_SWEEP_MS, default 30 s). */
  sweepMs?: number;
  /** Period of the unreferenced-blob sweep (TRACEFOLD_BLOB_SWEEP_MS, default 1 hour; 0 turns it off). */
  blobSweepMs?: number;
  /** Age below which an unreferenced blob is kept (TRACEFOLD_BLOB_SWEEP_GRACE_MINUTES, default 60). */
  blobGraceMs?: number;
}

/**
 * Registers every job handler of Tracefold on `queue` and starts it: what `npm run worker` runs,
 * and what a studio server runs in-process when TRACEFOLD_INPROCESS_WORKER is on (the SQLite
 * default). Handlers are idempotent (see job-queue.ts), so any number of processes may do this;
 * each also sweeps now and every `sweepMs` for work whose worker died (stale heartbeat, after
 * TRACEFOLD_RUN_STALE_MS, default 2 minutes) and for queued work without a job: evaluation runs,
 * upload imports and studio compactions that call the LLM. Every `blobSweepMs`
 * (first one period after start) it removes blobs no row refers to that are older than the grace
 * period (server/storage/sweep-unreferenced-blobs.ts); sweeps of several workers may overlap harmlessly.
 */
export async function startJobWorkers(db: Db, queue: JobQueue, options: StartJobWorkersOptions = {}): Promise<JobWorkers> {
  const store = options.store ?? getBlobStore();
  const sweepMs = options.sweepMs ?? envInt("TRACEFOLD_JOB_SWEEP_MS", 30_000);
  const staleMs = staleMsFromEnv();
  const workerId = runnerWorkerId();
  await queue.start();
  await queue.work("upload-import", uploadImportHandler(db, store, { workerId, staleMs }), {
    concurrency: options.importConcurrency ?? envInt("TRACEFOLD_WORKER_IMPORT_CONCURRENCY", 1),
  });
  await queue.work("session-compact", compactionJobHandler(db, store, { workerId, staleMs, ...(options.llm ? { llm: options.llm } : {}) }), {
    concurrency: options.compactConcurrency ?? envInt("TRACEFOLD_WORKER_COMPACT_CONCURRENCY", 2),
  });
  const sweepUploads = () => reconcileUploadImports(db, queue, { workerId, staleMs }).catch((error) => console.error("upload imports sweep:", error));
  const sweepCompactions = () => reconcileCompactionJobs(db, queue, { workerId, staleMs }).catch((error) => console.error("compaction jobs sweep:", error));
  const sweep = () => Promise.all([sweepUploads(), sweepCompactions()]);
  await sweep();
  const timer = setInterval(() => void sweep(), sweepMs);
  timer.unref();
  const blobSweeps = startBlobSweeps(
    db,
    store,
    options.blobSweepMs ?? blobSweepMsFromEnv(),
    options.blobGraceMs ?? envInt("TRACEFOLD_BLOB_SWEEP_GRACE_MINUTES", DEFAULT_BLOB_GRACE_MS / 60_000) * 60_000,
  );
  const runner = startEvalRunner(db, {
    queue,
    staleMs,
    intervalMs: sweepMs,
    concurrency: options.evalConcurrency ?? envInt("TRACEFOLD_WORKER_EVAL_CONCURRENCY", 1),
  });
  return {
    async stop({ timeoutMs = 30_000 } = {}) {
      clearInterval(timer);
      await blobSweeps.stop();
      await runner.stop();
      await queue.stop({ timeoutMs });
    },
  };
}

/**
 * One sweep at a time per process: a slow sweep (a large bucket) is not started again on top of
 * itself, and stop waits for the running one so it does not outlive the database connection.
 */
function startBlobSweeps(db: Db, store: BlobStore, periodMs: number, graceMs: number): { stop(): Promise<void> } {
  if (periodMs === 0) return { stop: async () => undefined };
  let running: Promise<void> | null = null;
  const sweep = async () => {
    try {
      const result = await sweepUnreferencedBlobs(db, store, { graceMs });
      if (result.removed > 0) console.log(`blob sweep: removed ${result.removed} unreferenced blobs (${result.bytesFreed} bytes) of ${result.scanned}`);
    } catch (error) {
      console.error("blob sweep:", error);
    }
  };
  const timer = setInterval(() => {
    running ??= sweep().finally(() => (running = null));
  }, periodMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

/** TRACEFOLD_BLOB_SWEEP_MS: a positive period in ms, or 0 to turn the sweep off (default 1 hour). */
function blobSweepMsFromEnv(): number {
  const raw = processEnv().TRACEFOLD_BLOB_SWEEP_MS?.trim();
  if (raw === "0") return 0;
  return envInt("TRACEFOLD_BLOB_SWEEP_MS", 60 * 60_000);
}

function envInt(name: string, fallback: number): number {
  const value = Number(processEnv()[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

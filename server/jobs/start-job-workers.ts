import type { Db } from "../db/client";
import { staleMsFromEnv } from "../evals/eval-jobs";
import { runnerWorkerId } from "../evals/eval-runner";
import { startEvalRunner } from "../evals/start-eval-runner";
import type { BlobStore } from "../storage/blob-store";
import { getBlobStore } from "../storage/configured-blob-store";
import { reconcileUploadImports, uploadImportHandler } from "../uploads/run-upload-import";
import type { JobQueue } from "./job-queue";

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
  /** Period of the orphan / missing-job sweeps (TRACEFOLD_JOB_SWEEP_MS, default 30 s). */
  sweepMs?: number;
}

/**
 * Registers every job handler of Tracefold on `queue` and starts it: what `npm run worker` runs,
 * and what a studio server runs in-process when TRACEFOLD_INPROCESS_WORKER is on (the SQLite
 * default). Handlers are idempotent (see job-queue.ts), so any number of processes may do this;
 * each also sweeps now and every `sweepMs` for work whose worker died (stale heartbeat, after
 * TRACEFOLD_RUN_STALE_MS, default 2 minutes) and for queued work without a job.
 */
export async function startJobWorkers(db: Db, queue: JobQueue, options: StartJobWorkersOptions = {}): Promise<JobWorkers> {
  const store = options.store ?? getBlobStore();
  const sweepMs = options.sweepMs ?? envInt("TRACEFOLD_JOB_SWEEP_MS", 30_000);
  const staleMs = staleMsFromEnv();
  const workerId = runnerWorkerId();
  await queue.start();
  await queue.work("upload-import", uploadImportHandler(db, store, { workerId, staleMs }), { concurrency: options.importConcurrency ?? envInt("TRACEFOLD_WORKER_IMPORT_CONCURRENCY", 1) });
  const sweepUploads = () => reconcileUploadImports(db, queue, { workerId, staleMs }).catch((error) => console.error("upload imports sweep:", error));
  await sweepUploads();
  const timer = setInterval(() => void sweepUploads(), sweepMs);
  timer.unref();
  const runner = startEvalRunner(db, { queue, staleMs, intervalMs: sweepMs, concurrency: options.evalConcurrency ?? envInt("TRACEFOLD_WORKER_EVAL_CONCURRENCY", 1) });
  return {
    async stop({ timeoutMs = 30_000 } = {}) {
      clearInterval(timer);
      await runner.stop();
      await queue.stop({ timeoutMs });
    },
  };
}

function envInt(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

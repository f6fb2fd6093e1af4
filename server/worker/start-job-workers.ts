import type { LlmClient } from "@/lib/llm/types";
import type { Db } from "../db/client";
import { compactionJobs } from "../compaction/compaction-jobs/compaction-jobs";
import { staleMsFromEnv } from "../evaluation/eval-jobs";
import { runnerWorkerId } from "../evaluation/eval-runner";
import { evaluationJobs } from "../evaluation/evaluation-jobs";
import type { FeatureJobs, JobContext, RegisterJobs } from "../jobs/job-feature";
import type { JobQueue } from "../jobs/job-queue";
import { blobSweepJobs } from "../storage/blob-sweep-jobs";
import type { BlobStore } from "../storage/blob-store";
import { getBlobStore } from "../storage/configured-blob-store";
import { DEFAULT_BLOB_GRACE_MS } from "../storage/sweep-unreferenced-blobs";
import { rolloutRunJobs } from "../rollout/rollout-run-jobs";
import { uploadImportJobs } from "../trace/import/upload-import-jobs";
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
  /** Rollout runs executed at once (default 1). */
  rolloutConcurrency?: number;
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
 * Starts every feature's jobs on `queue`: what `npm run worker` runs, and what a studio server runs
 * in-process when TRACEFOLD_INPROCESS_WORKER is on (the SQLite default). The list below is the one
 * place that names the features with jobs; each registers its own handlers (a `RegisterJobs` beside
 * its code, server/jobs/job-feature.ts), so the queue folder knows no feature. Handlers are
 * idempotent (see job-queue.ts), so any number of processes may do this; each also sweeps now and
 * every `sweepMs` for work whose worker died (stale heartbeat, after TRACEFOLD_RUN_STALE_MS,
 * default 2 minutes) and for queued work without a job.
 */
export async function startJobWorkers(db: Db, queue: JobQueue, options: StartJobWorkersOptions = {}): Promise<JobWorkers> {
  const sweepMs = options.sweepMs ?? envInt("TRACEFOLD_JOB_SWEEP_MS", 30_000);
  const store = options.store ?? getBlobStore();
  const context: JobContext = {
    db,
    queue,
    workerId: runnerWorkerId(),
    staleMs: staleMsFromEnv(),
    sweepMs,
    ...(options.llm ? { llm: options.llm } : {}),
  };
  const features: RegisterJobs[] = [
    uploadImportJobs(store, options.importConcurrency ?? envInt("TRACEFOLD_WORKER_IMPORT_CONCURRENCY", 1)),
    compactionJobs(store, options.compactConcurrency ?? envInt("TRACEFOLD_WORKER_COMPACT_CONCURRENCY", 2)),
    evaluationJobs(options.evalConcurrency ?? envInt("TRACEFOLD_WORKER_EVAL_CONCURRENCY", 1)),
    rolloutRunJobs(options.rolloutConcurrency ?? 1),
    blobSweepJobs(
      store,
      options.blobSweepMs ?? blobSweepMsFromEnv(),
      options.blobGraceMs ?? envInt("TRACEFOLD_BLOB_SWEEP_GRACE_MINUTES", DEFAULT_BLOB_GRACE_MS / 60_000) * 60_000,
    ),
  ];
  await queue.start();
  const started: FeatureJobs[] = [];
  for (const register of features) started.push(await register(context));
  const sweep = () => Promise.all(started.map((feature) => feature.sweep?.().catch((error) => console.error(`${feature.name} sweep:`, error))));
  await sweep();
  const timer = setInterval(() => void sweep(), sweepMs);
  timer.unref();
  return {
    async stop({ timeoutMs = 30_000 } = {}) {
      clearInterval(timer);
      for (const feature of started) await feature.stop?.();
      await queue.stop({ timeoutMs });
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

import type { LlmClient } from "@/lib/llm/types";
import type { Db } from "../db/client";
import type { JobQueue } from "./job-queue";

/**
 * The contract between the queue and the features that run work on it: each feature's folder
 * exports a `RegisterJobs` (its handlers on the queue, its sweep for orphaned or job-less work),
 * and the worker process (server/worker/start-job-workers.ts) starts the ones it lists, handing each
 * what it needs beyond this context (its concurrency, the blob store). The queue
 * folder names no feature, so a new kind of job touches only its feature and that list.
 */
export interface JobContext {
  db: Db;
  queue: JobQueue;
  /** This process's identity in heartbeats and claims. */
  workerId: string;
  /** A running job whose heartbeat is older than this is orphaned (TRACEFOLD_RUN_STALE_MS). */
  staleMs: number;
  /** Period of the orphan / missing-job sweeps. */
  sweepMs: number;
  /** The model jobs call (tests inject a stub's client); absent: the endpoint in effect when each job runs. */
  llm?: LlmClient;
}

/** A feature's registered handlers: the sweep the worker runs now and every `sweepMs`, and what stops it. */
export interface FeatureJobs {
  /** Named in logs. */
  name: string;
  /** Requeues this feature's orphaned work and gives queued work its missing job. */
  sweep?(): Promise<void>;
  /** Stops what the feature started beside the queue (its own timers); the queue itself is stopped by the worker. */
  stop?(): Promise<void>;
}

export type RegisterJobs = (context: JobContext) => Promise<FeatureJobs>;

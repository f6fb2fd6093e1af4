/**
 * One interface for durable background jobs, with two implementations: pg-boss when the database
 * is PostgreSQL (server/jobs/pg-boss-queue.ts; any number of `npm run worker` processes on any
 * machine share the queue) and an in-process runner over the `Job` table when it is SQLite
 * (server/jobs/sqlite-queue.ts; the embedded studio runs it itself). Handlers must be idempotent:
 * a job can run again after its worker died (at-least-once delivery), so each handler claims its
 * work through the row it owns (an evaluation run, an upload import, a compaction job) and does nothing when that
 * work is already done or held by a live worker.
 */
export interface JobQueue {
  readonly kind: "pg-boss" | "sqlite";
  /** Connects (pg-boss creates or migrates its `pgboss` schema here). Idempotent. */
  start(): Promise<void>;
  /**
   * Stops taking jobs, aborts the signal handed to running handlers (they release their work and
   * return), waits for them up to `timeoutMs` (default 30 s) and disconnects.
   */
  stop(options?: { timeoutMs?: number }): Promise<void>;
  /** Queues a job; null when a job with the same singletonKey is already waiting in that queue. */
  enqueue<T extends object>(name: JobName, payload: T, options?: EnqueueOptions): Promise<string | null>;
  /** Runs `handler` for jobs of `name`, at most `concurrency` (default 1) at a time in this process. */
  work<T extends object>(name: JobName, handler: JobHandler<T>, options?: { concurrency?: number }): Promise<void>;
}

export interface EnqueueOptions {
  /** At most one waiting (not yet started) job per key and queue: enqueueing twice is harmless. */
  singletonKey?: string;
  /** Delay before the job may start, in seconds. */
  startAfterSeconds?: number;
}

export interface JobContext<T> {
  id: string;
  name: JobName;
  data: T;
  /** Aborted when this process stops gracefully: release the work (back to queued) and return. */
  signal: AbortSignal;
}

/** Resolving completes the job; throwing fails it (retried up to the queue's retry limit). */
export type JobHandler<T> = (job: JobContext<T>) => Promise<void>;

/** The queues, with their retry limit and how long one attempt may hold a job. */
export const JOB_QUEUES = {
  /** Payload { runId }: executes (or resumes) one evaluation run; the run row holds progress. */
  "eval-run": { retryLimit: 3, retryDelaySeconds: 5, expireInSeconds: 23 * 3600 },
  /** Payload { importId }: imports one large upload received by a studio server. */
  "upload-import": { retryLimit: 2, retryDelaySeconds: 5, expireInSeconds: 3600 },
  /** Payload { jobId }: runs one studio compaction that calls the LLM; its CompactionJob row holds the result. */
  "session-compact": { retryLimit: 2, retryDelaySeconds: 5, expireInSeconds: 3600 },
  /** Payload { runId }: executes (or resumes) one rollout run; the RolloutRun row holds progress and results. */
  "rollout-run": { retryLimit: 3, retryDelaySeconds: 5, expireInSeconds: 23 * 3600 },
} as const;

export type JobName = keyof typeof JOB_QUEUES;
export const JOB_NAMES = Object.keys(JOB_QUEUES) as JobName[];

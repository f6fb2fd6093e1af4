import { getDb } from "../db/client";
import { databaseUrl, engineOf } from "../db/engine";
import type { JobQueue } from "./job-queue";
import { createPgBossQueue } from "./pg-boss-queue";
import { createTableQueue } from "./sqlite-queue";
import { processEnv } from "@/server/env";

/**
 * This process's JobQueue for DATABASE_URL (one per process, kept on globalThis so Next's module
 * reloads share it): pg-boss on PostgreSQL, the `Job`-table runner on SQLite. A studio server uses
 * it to queue work; a process that runs workers (npm run worker, or the studio with
 * TRACEFOLD_INPROCESS_WORKER) also registers handlers on it (server/worker/start-job-workers.ts).
 */
const globalQueue = globalThis as unknown as { tracefoldJobQueue?: { url: string; queue: JobQueue } };

export function getJobQueue(options: { worker?: boolean } = {}): JobQueue {
  const url = databaseUrl();
  const cached = globalQueue.tracefoldJobQueue;
  if (cached && cached.url === url) return cached.queue;
  const pollMs = jobPollMs();
  const queue =
    engineOf(url) === "postgres"
      ? createPgBossQueue(url, { pollingIntervalSeconds: Math.max(0.5, pollMs / 1000), supervise: options.worker ?? inProcessWorkerEnabled() })
      : createTableQueue(getDb(), { pollMs });
  globalQueue.tracefoldJobQueue = { url, queue };
  return queue;
}

/**
 * Whether a studio server executes jobs itself: TRACEFOLD_INPROCESS_WORKER=1 or 0; by default on
 * for SQLite (the embedded `npm run studio` needs no other process) and off for PostgreSQL, where
 * `npm run worker` processes do the work and studio servers stay stateless.
 */
export function inProcessWorkerEnabled(): boolean {
  const flag = processEnv().TRACEFOLD_INPROCESS_WORKER;
  if (flag === "1" || flag === "true") return true;
  if (flag === "0" || flag === "false") return false;
  return engineOf(databaseUrl()) === "sqlite";
}

/** TRACEFOLD_JOB_POLL_MS: how often an idle worker looks for jobs (default 1000; pg-boss's floor is 500). */
export function jobPollMs(): number {
  const value = Number(processEnv().TRACEFOLD_JOB_POLL_MS);
  return Number.isFinite(value) && value > 0 ? value : 1000;
}

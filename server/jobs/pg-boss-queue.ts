import PgBoss from "pg-boss";
import { JOB_NAMES, JOB_QUEUES, type JobHandler, type JobName, type JobQueue } from "./job-queue";

export interface PgBossQueueOptions {
  /** How often an idle worker polls (pg-boss's minimum is 0.5 s; default 2 s). */
  pollingIntervalSeconds?: number;
  /** Connections in this process's pool (default 4). */
  poolSize?: number;
  /**
   * Run pg-boss's maintenance here (expiring dead workers' jobs, retention). On in worker processes;
   * a studio server that only queues jobs leaves it to them (default true).
   */
  supervise?: boolean;
}

/**
 * The JobQueue over pg-boss 10 on the team's PostgreSQL: jobs live in pg-boss's own `pgboss`
 * schema (created or migrated on start, under an advisory lock, so any number of workers and
 * studio servers can start at once). Each queue uses the `short` policy, so a singletonKey allows
 * one waiting job per key; an attempt that outlives its queue's expiry, or whose process died, is
 * failed by pg-boss's supervisor and retried up to the queue's limit.
 */
export function createPgBossQueue(connectionString: string, options: PgBossQueueOptions = {}): JobQueue {
  const boss = new PgBoss({
    connectionString,
    schema: "pgboss",
    max: options.poolSize ?? 4,
    application_name: "tracefold-jobs",
    supervise: options.supervise ?? true,
    schedule: false,
  });
  boss.on("error", (error: unknown) => console.error("pg-boss:", error));
  const controller = new AbortController();
  let starting: Promise<void> | undefined;

  const start = () =>
    (starting ??= (async () => {
      await boss.start();
      for (const name of JOB_NAMES) {
        const { retryLimit, retryDelaySeconds, expireInSeconds } = JOB_QUEUES[name];
        await boss.createQueue(name, { name, policy: "short", retryLimit, retryDelay: retryDelaySeconds, expireInSeconds });
      }
    })());

  return {
    kind: "pg-boss",
    start,
    async stop({ timeoutMs = 30_000 } = {}) {
      if (!starting) return;
      controller.abort();
      await boss.stop({ graceful: true, wait: true, timeout: timeoutMs });
    },
    async enqueue(name, payload, enqueueOptions = {}) {
      await start();
      return boss.send(name, payload, {
        ...(enqueueOptions.singletonKey ? { singletonKey: enqueueOptions.singletonKey } : {}),
        ...(enqueueOptions.startAfterSeconds ? { startAfter: enqueueOptions.startAfterSeconds } : {}),
      });
    },
    async work<T extends object>(name: JobName, handler: JobHandler<T>, workOptions: { concurrency?: number } = {}) {
      await start();
      const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 2;
      for (let i = 0; i < Math.max(1, workOptions.concurrency ?? 1); i++) {
        await boss.work<T>(name, { batchSize: 1, pollingIntervalSeconds }, async ([job]) => {
          if (job) await handler({ id: job.id, name, data: job.data, signal: controller.signal });
        });
      }
    },
  };
}

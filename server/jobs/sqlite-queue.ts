import { randomUUID } from "node:crypto";
import type { Db } from "../db/client";
import { JOB_QUEUES, type EnqueueOptions, type JobHandler, type JobName, type JobQueue } from "./job-queue";

export interface TableQueueOptions {
  /** How often idle handlers look for work (default 500 ms); an enqueue in this process wakes them at once. */
  pollMs?: number;
  /** How long a claimed job stays ours without a renewal (default 60 s; renewed every third of it). */
  leaseMs?: number;
  workerId?: string;
}

interface Registration {
  handler: JobHandler<object>;
  concurrency: number;
  active: number;
}

/**
 * The JobQueue of the embedded SQLite studio: jobs are rows of the `Job` table, claimed with a
 * conditional update (so two processes on one database file never share a job) and held by a lease
 * that the running process renews. A process that dies stops renewing: once the lease runs out the
 * job goes back to `created` (or `failed` past its retry limit) and runs again — the same
 * at-least-once contract as pg-boss, so handlers are written once for both.
 */
export function createTableQueue(db: Db, options: TableQueueOptions = {}): JobQueue {
  const pollMs = options.pollMs ?? 500;
  const leaseMs = options.leaseMs ?? 60_000;
  const workerId = options.workerId ?? `jobs-${process.pid}-${randomUUID().slice(0, 8)}`;
  const registrations = new Map<JobName, Registration>();
  const running = new Set<Promise<void>>();
  const controller = new AbortController();
  let timer: ReturnType<typeof setInterval> | undefined;
  let stopped = false;
  let ticking = false;

  const tick = async () => {
    if (stopped || ticking || registrations.size === 0) return;
    ticking = true;
    try {
      await expireLeases(db);
      for (const [name, registration] of registrations) {
        while (!stopped && registration.active < registration.concurrency) {
          const job = await claim(db, name, workerId, leaseMs);
          if (!job) break;
          registration.active++;
          const execution = execute(db, job, registration.handler, { workerId, leaseMs, signal: controller.signal }).finally(() => {
            registration.active--;
            running.delete(execution);
            void tick();
          });
          running.add(execution);
        }
      }
    } catch (error) {
      if (!stopped) console.error("job runner:", error);
    } finally {
      ticking = false;
    }
  };

  return {
    kind: "sqlite",
    async start() {
      if (timer || stopped) return;
      timer = setInterval(() => void tick(), pollMs);
      timer.unref();
    },
    async stop({ timeoutMs = 30_000 } = {}) {
      if (stopped) return;
      stopped = true;
      if (timer) clearInterval(timer);
      controller.abort();
      const all = Promise.allSettled([...running]);
      await Promise.race([all, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
      // Whatever is still running past the timeout is released for another process.
      await db.job.updateMany({ where: { state: "active", lockedBy: workerId }, data: { state: "created", lockedBy: null, lockedUntil: null } });
    },
    async enqueue(name, payload, enqueueOptions: EnqueueOptions = {}) {
      const { singletonKey, startAfterSeconds } = enqueueOptions;
      if (singletonKey) {
        const waiting = await db.job.findFirst({ where: { queue: name, singletonKey, state: "created" }, select: { id: true } });
        if (waiting) return null;
      }
      const job = await db.job.create({
        data: {
          queue: name,
          payload: JSON.stringify(payload),
          retryLimit: JOB_QUEUES[name].retryLimit,
          ...(singletonKey ? { singletonKey } : {}),
          ...(startAfterSeconds ? { startAfter: new Date(Date.now() + startAfterSeconds * 1000) } : {}),
        },
      });
      if (!stopped && registrations.has(name)) setImmediate(() => void tick());
      return job.id;
    },
    async work(name, handler, workOptions = {}) {
      registrations.set(name, { handler: handler as JobHandler<object>, concurrency: Math.max(1, workOptions.concurrency ?? 1), active: 0 });
      setImmediate(() => void tick());
    },
  };
}

type ClaimedJob = { id: string; queue: string; payload: string; attempts: number; retryLimit: number };

async function claim(db: Db, queue: JobName, workerId: string, leaseMs: number): Promise<ClaimedJob | undefined> {
  for (let tries = 0; tries < 5; tries++) {
    const now = new Date();
    const next = await db.job.findFirst({ where: { queue, state: "created", startAfter: { lte: now } }, orderBy: { createdAt: "asc" } });
    if (!next) return undefined;
    const won = await db.job.updateMany({
      where: { id: next.id, state: "created" },
      data: { state: "active", lockedBy: workerId, lockedUntil: new Date(now.getTime() + leaseMs), attempts: { increment: 1 } },
    });
    if (won.count === 1) return { ...next, attempts: next.attempts + 1 };
  }
  return undefined;
}

/** Jobs whose holder stopped renewing its lease: back in the queue, or failed past the retry limit. */
async function expireLeases(db: Db): Promise<void> {
  const now = new Date();
  const expired = await db.job.findMany({ where: { state: "active", lockedUntil: { lt: now } }, select: { id: true, attempts: true, retryLimit: true } });
  for (const job of expired) {
    const exhausted = job.attempts > job.retryLimit;
    await db.job.updateMany({
      where: { id: job.id, state: "active", lockedUntil: { lt: now } },
      data: exhausted
        ? { state: "failed", finishedAt: now, lockedBy: null, lockedUntil: null, error: `its worker stopped after ${job.attempts} attempts` }
        : { state: "created", lockedBy: null, lockedUntil: null, error: "its worker stopped; retried" },
    });
  }
}

async function execute(
  db: Db,
  job: ClaimedJob,
  handler: JobHandler<object>,
  context: { workerId: string; leaseMs: number; signal: AbortSignal },
): Promise<void> {
  const mine = { id: job.id, state: "active", lockedBy: context.workerId };
  const renew = setInterval(
    () => {
      void db.job.updateMany({ where: mine, data: { lockedUntil: new Date(Date.now() + context.leaseMs) } }).catch(() => undefined);
    },
    Math.max(100, Math.floor(context.leaseMs / 3)),
  );
  renew.unref();
  try {
    await handler({ id: job.id, name: job.queue as JobName, data: JSON.parse(job.payload) as object, signal: context.signal });
    await db.job.updateMany({ where: mine, data: { state: "completed", finishedAt: new Date(), lockedBy: null, lockedUntil: null, error: null } });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const retry = job.attempts <= job.retryLimit;
    const delayMs = JOB_QUEUES[job.queue as JobName].retryDelaySeconds * 1000;
    await db.job.updateMany({
      where: mine,
      data: retry
        ? { state: "created", startAfter: new Date(Date.now() + delayMs), lockedBy: null, lockedUntil: null, error: message }
        : { state: "failed", finishedAt: new Date(), lockedBy: null, lockedUntil: null, error: message },
    });
  } finally {
    clearInterval(renew);
  }
}

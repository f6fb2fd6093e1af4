import { getDb } from "../db/client";
import { databaseUrl, engineOf } from "../db/engine";
import { migrate } from "../db/migrate";
import { checkBlobStoreOrExit } from "../storage/check-blob-store";
import { startTempSweeps } from "../trace/import/temp-sweeps";
import { getJobQueue } from "../jobs/process-queue";
import { startJobWorkers } from "./start-job-workers";
import { processEnv } from "@/server/env";
import { checkEnvironmentOrExit } from "../config/check-environment";

/**
 * `npm run worker`: a job worker process. It first proves the blob store works (a wrong bucket,
 * endpoint or key exits 1 with a message naming the setting), migrates the database (idempotent,
 * under the migrator's lock), connects the JobQueue of DATABASE_URL (pg-boss on PostgreSQL), registers every
 * handler and works until SIGTERM or SIGINT; then it stops taking jobs, hands a running evaluation
 * back to the queue after its current unit (or lets an import finish), and exits 0. Start as many as
 * the machines allow: they share the queue, and a worker that is killed outright loses nothing —
 * its run resumes elsewhere from its stored results once its heartbeat is stale.
 */
async function main(): Promise<void> {
  checkEnvironmentOrExit(`tracefold worker ${process.pid}`);
  const url = databaseUrl();
  await checkBlobStoreOrExit(`tracefold worker ${process.pid}`);
  const temps = startTempSweeps();
  await migrate(url);
  const db = getDb();
  const queue = getJobQueue({ worker: true });
  const workers = await startJobWorkers(db, queue);
  console.log(`tracefold worker ${process.pid}: working ${engineOf(url) === "postgres" ? "pg-boss queues on PostgreSQL" : "the SQLite job table"}`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`tracefold worker ${process.pid}: ${signal}, stopping after the current unit`);
    void temps.stop();
    const timeoutMs = Number(processEnv().TRACEFOLD_WORKER_STOP_TIMEOUT_MS) || 30_000;
    workers
      .stop({ timeoutMs })
      .then(() => db.$disconnect())
      .then(
        () => process.exit(0),
        (error) => {
          console.error("tracefold worker: stop failed", error);
          process.exit(1);
        },
      );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  // Keep the process alive: the queues' own timers are unref'd.
  setInterval(() => undefined, 1 << 30);
}

main().catch((error) => {
  console.error("tracefold worker failed to start:", error);
  process.exit(1);
});

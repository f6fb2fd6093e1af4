/**
 * Next calls `register()` once when a server instance starts (never during `next build`). First it
 * checks every setting in the environment (server/config: all bad ones named, then exit 1), then it
 * proves the blob store works (server/storage/check-blob-store.ts): a wrong bucket, endpoint, key or
 * an unwritable data directory makes the studio exit at start-up with a message naming the setting,
 * instead of failing the first upload. Then it starts the sweep of abandoned temp files
 * (server/trace/import/temp-sweeps.ts). When this server runs jobs itself (TRACEFOLD_INPROCESS_WORKER; on by default with SQLite, off with
 * PostgreSQL where `npm run worker` processes do the work), the job handlers start here, so queued
 * runs and runs orphaned by the previous process resume right after a restart instead of waiting
 * for someone to open an evaluation page. The workers need Node (Prisma, node:crypto): the edge
 * runtime skips them, and the imports are dynamic so the edge bundle never includes server modules.
 */
export async function register(): Promise<void> {
  // NEXT_RUNTIME is Next's own build-time marker (inlined per bundle), the one variable read here.
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  (await import("./server/config/check-environment")).checkEnvironmentOrExit("tracefold studio");
  const { checkBlobStoreOrExit } = await import("./server/storage/check-blob-store");
  await checkBlobStoreOrExit("tracefold studio");
  // Temp files a killed studio left (raw uploads, secrets included) go now and then hourly, not only on the next upload.
  (await import("./server/trace/import/temp-sweeps")).startTempSweeps();
  // Long OTLP sessions a stopped studio left marked dirty are rebuilt by the next one (server/ingest/otlp/otlp-rebuilds.ts).
  (await import("./server/ingest/otlp/otlp-rebuilds")).startOtlpRebuildSweeps();
  const [{ getDb }, { getJobQueue, inProcessWorkerEnabled }, { startJobWorkers }] = await Promise.all([
    import("./server/db/client"),
    import("./server/jobs/process-queue"),
    import("./server/worker/start-job-workers"),
  ]);
  if (!inProcessWorkerEnabled()) return;
  // A worker that cannot start must not take the studio down with it (the store was checked above).
  await startJobWorkers(getDb(), getJobQueue({ worker: true })).catch((error) => console.error("in-process job workers did not start:", error));
}

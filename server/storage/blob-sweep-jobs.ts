import type { BlobStore } from "./blob-store";
import type { Db } from "../db/client";
import { sweepUnreferencedBlobs } from "./sweep-unreferenced-blobs";

/**
 * The storage's periodic work: every `periodMs` (0: never; first one period after start) it removes
 * blobs no row refers to that are older than `graceMs` (sweep-unreferenced-blobs.ts). One sweep at
 * a time per process: a slow sweep (a large bucket) is not started again on top of itself, and stop
 * waits for the running one so it does not outlive the database connection. Sweeps of several
 * workers may overlap harmlessly.
 */
export function blobSweepJobs(store: BlobStore, periodMs: number, graceMs: number): (context: { db: Db }) => Promise<{ name: string; stop?(): Promise<void> }> {
  return async ({ db }) => {
    if (periodMs === 0) return { name: "blob sweeps" };
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
      name: "blob sweeps",
      async stop() {
        clearInterval(timer);
        await running;
      },
    };
  };
}

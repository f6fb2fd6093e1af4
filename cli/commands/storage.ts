import { getDb } from "@/server/db/client";
import { getBlobStore } from "@/server/storage/configured-blob-store";
import { DEFAULT_BLOB_GRACE_MS, sweepUnreferencedBlobs } from "@/server/storage/sweep-unreferenced-blobs";
import { parseCommandArgs, UsageError } from "../args";
import { storageCommand } from "../usage";

/**
 * `tracefold storage sweep`: removes the blobs of the configured store (TRACEFOLD_STORAGE) that no
 * row of DATABASE_URL refers to and that are older than the grace period (default 60 minutes, so
 * an import in flight is never touched) — what the job workers do every TRACEFOLD_BLOB_SWEEP_MS.
 * `--dry-run` counts without removing. `--json` prints the counts as one JSON object.
 */
export async function runStorage(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, storageCommand);
  if (positionals.length !== 1 || positionals[0] !== "sweep") throw new UsageError("storage takes one subcommand: sweep");
  const graceMs = values["grace-minutes"] === undefined ? DEFAULT_BLOB_GRACE_MS : graceMinutes(values["grace-minutes"]) * 60_000;
  const store = getBlobStore();
  const db = getDb();
  try {
    const result = await sweepUnreferencedBlobs(db, store, { graceMs, dryRun: values["dry-run"] });
    if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
    else {
      const verb = result.dryRun ? "would remove" : "removed";
      console.log(
        `storage sweep: ${result.scanned} blobs scanned, ${result.referenced} referenced, ${result.keptYoung} younger than ${graceMs / 60_000} minutes kept, ${verb} ${result.removed} (${(result.bytesFreed / 1048576).toFixed(1)} MiB)`,
      );
    }
    return 0;
  } finally {
    await db.$disconnect();
  }
}

function graceMinutes(text: string): number {
  const minutes = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || !Number.isFinite(minutes))
    throw new UsageError(`--grace-minutes must be a number of minutes (0 or more), got ${JSON.stringify(text)}`);
  return minutes;
}

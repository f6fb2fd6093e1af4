import { resolve } from "node:path";
import { backupWorkspace } from "@/server/backup/backup-workspace";
import { restoreWorkspace } from "@/server/backup/restore-workspace";
import { getDb } from "@/server/db/client";
import { databaseUrl, engineOf } from "@/server/db/engine";
import { migrate } from "@/server/db/migrate";
import { dataDir } from "@/server/storage/blob-store";
import { getBlobStore } from "@/server/storage/configured-blob-store";
import { parseCommandArgs, UsageError } from "../args";
import { backupCommand, restoreCommand } from "../usage";

/**
 * Backs up the configured workspace (DATABASE_URL + the blob store of TRACEFOLD_STORAGE) into one
 * archive; safe while the studio runs (one consistent read transaction). Prints what it wrote.
 */
export async function runBackup(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, backupCommand);
  if (!values.out || positionals.length > 0) throw new UsageError("backup needs --out FILE and nothing else");
  const url = databaseUrl();
  const db = getDb();
  try {
    const summary = await backupWorkspace({
      db,
      engine: engineOf(url),
      store: getBlobStore(),
      out: resolve(values.out),
      scratchDir: resolve(dataDir(), "tmp"),
    });
    const rows = summary.tables.reduce((sum, t) => sum + t.rows, 0);
    console.log(
      `backup ${summary.out}: ${rows} rows in ${summary.tables.length} tables, ${summary.blobs} blobs (${(summary.blobBytes / 1048576).toFixed(1)} MiB)`,
    );
    return 0;
  } finally {
    await db.$disconnect();
  }
}

/**
 * Restores an archive into the configured workspace: migrates the database, verifies the whole
 * archive (one from an older version restores when the migrations since are additive), and
 * refuses a workspace that already has rows unless --force.
 */
export async function runRestore(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, restoreCommand);
  if (positionals.length !== 1) throw new UsageError("restore needs exactly one archive");
  const url = databaseUrl();
  await migrate(url);
  const db = getDb();
  try {
    const summary = await restoreWorkspace({
      db,
      engine: engineOf(url),
      store: getBlobStore(),
      file: resolve(positionals[0]!),
      scratchDir: resolve(dataDir(), "tmp"),
      force: values.force,
    });
    const rows = summary.tables.reduce((sum, t) => sum + t.rows, 0);
    console.log(
      `restored ${rows} rows in ${summary.tables.length} tables and ${summary.blobs} blobs (${summary.blobsWritten} new to the store), every digest and count checked`,
    );
    if (summary.upgradedThrough.length > 0) {
      console.log(
        `the archive predates ${summary.upgradedThrough.join(", ")} (additive: existing rows unchanged)${summary.emptyTables.length > 0 ? `; ${summary.emptyTables.join(", ")} restored empty` : ""}`,
      );
    }
    return 0;
  } finally {
    await db.$disconnect();
  }
}

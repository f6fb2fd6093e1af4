import { parseAge } from "@/lib/util/parse-age";
import { getDb } from "@/server/db/client";
import { databaseUrl } from "@/server/db/engine";
import { migrate } from "@/server/db/migrate";
import { deleteUploads, uploadsOlderThan } from "@/server/ingest/retention/delete-uploads";
import { getBlobStore } from "@/server/storage/configured-blob-store";
import { parseCommandArgs, UsageError } from "../args";
import { retentionCommand } from "../usage";

/**
 * `tracefold retention --older-than 30d`: deletes every upload stored before then, with its
 * sessions, sidecars and blobs (server/ingest/retention/delete-uploads.ts), on the server machine
 * (DATABASE_URL, TRACEFOLD_STORAGE). Uploads a queued or running job still reads are kept and
 * named. `--dry-run` lists what would go. Exit 0 when everything due went, 1 when some was kept.
 */
export async function runRetention(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, retentionCommand);
  if (positionals.length > 0) throw new UsageError(`retention takes no arguments, got ${JSON.stringify(positionals[0])}`);
  if (!values["older-than"]) throw new UsageError("--older-than AGE is required (30d, 12h, 90m)");
  const age = parseAge(values["older-than"]);
  if (age === null) throw new UsageError(`--older-than must be an age like 30d, 12h or 90m, got ${JSON.stringify(values["older-than"])}`);
  const cutoff = new Date(Date.now() - age);
  await migrate(databaseUrl());
  const db = getDb();
  try {
    const due = await uploadsOlderThan(db, cutoff);
    if (values["dry-run"]) {
      const listed = due.map((u) => ({ uploadId: u.id, fileName: u.fileName, sessions: u.sessions, uploadedAt: u.createdAt.toISOString() }));
      if (values.json) process.stdout.write(`${JSON.stringify({ cutoff: cutoff.toISOString(), dryRun: true, uploads: listed })}\n`);
      else {
        console.log(
          `would delete ${due.length} upload${due.length === 1 ? "" : "s"} stored before ${cutoff.toISOString()} (${due.reduce((n, u) => n + u.sessions, 0)} sessions)`,
        );
        for (const u of listed) console.log(`  ${u.uploadedAt}  ${u.uploadId}  ${u.fileName} (${u.sessions} sessions)`);
      }
      return 0;
    }
    const outcome = await deleteUploads(
      db,
      getBlobStore(),
      due.map((u) => u.id),
    );
    if (values.json) process.stdout.write(`${JSON.stringify({ cutoff: cutoff.toISOString(), dryRun: false, ...outcome })}\n`);
    else {
      console.log(
        `deleted ${outcome.deleted.length} upload${outcome.deleted.length === 1 ? "" : "s"} stored before ${cutoff.toISOString()} (${outcome.deleted.reduce((n, d) => n + d.sessions, 0)} sessions, ${outcome.blobsRemoved} blobs)`,
      );
      for (const kept of outcome.refused) console.log(`  kept ${kept.fileName} (${kept.uploadId}): ${kept.reason}`);
    }
    return outcome.refused.length === 0 ? 0 : 1;
  } finally {
    await db.$disconnect();
  }
}

import { readdir } from "node:fs/promises";
import { join } from "node:path";
import pg from "pg";
import { createDb } from "../../../server/db/client";
import { referencedBlobKeys } from "../../../server/storage/blob-references";
import { localBlobStore } from "../../../server/storage/blob-store";

/**
 * The import's own INSERTs (server/trace/import/write-sessions.ts), as Prisma sends them: a backend whose
 * last statement is one of these and whose transaction holds a transaction id is inside an import's
 * transaction that has written rows, which no other connection can see until it commits.
 */
const IMPORT_INSERT = String.raw`^INSERT INTO "public"\."(Upload|TraceSession|TraceMessage|ContextObjectRow|NativeCompactionRow|UploadRedaction)"`;

/** An import transaction seen open: its full transaction id (xid8, for pg_xact_status) and how long it had been open. */
export interface OpenImport {
  xid: string;
  ageMs: number;
}

/** Import transactions open right now in the bench database, from pg_stat_activity (not the caller's own). */
export async function openImportTransactions(client: pg.Client): Promise<OpenImport[]> {
  const { rows } = await client.query<{ xid: string; xmax: string; ageMs: number }>(
    `SELECT backend_xid::text AS xid, pg_snapshot_xmax(pg_current_snapshot())::text AS xmax,
            (extract(epoch FROM clock_timestamp() - xact_start) * 1000)::float8 AS "ageMs"
       FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid()
        AND xact_start IS NOT NULL AND backend_xid IS NOT NULL AND query ~ $1`,
    [IMPORT_INSERT],
  );
  return rows.map((r) => ({ xid: fullXid(r.xid, r.xmax), ageMs: r.ageMs }));
}

/**
 * pg_stat_activity shows a 32-bit xid; pg_xact_status wants the 64-bit xid8. A live transaction's
 * xid is within 2^31 of the current snapshot's xmax — below it, or just above when the xid was
 * assigned after that snapshot was taken — so the full id is the one with those low bits nearest
 * to xmax (which also handles a wrap of the low 32 bits either way).
 */
export function fullXid(xid: string, xmax: string): string {
  const max = BigInt(xmax);
  const half = 1n << 31n;
  let full = ((max >> 32n) << 32n) | BigInt(xid);
  if (full > max + half) full -= 1n << 32n;
  else if (full < max - half) full += 1n << 32n;
  return full.toString();
}

/** How the transactions ended: PostgreSQL's commit log says committed, aborted or in progress for each. */
export async function transactionOutcomes(client: pg.Client, xids: string[]): Promise<{ committed: number; aborted: number; inProgress: number }> {
  const outcome = { committed: 0, aborted: 0, inProgress: 0 };
  for (const xid of xids) {
    const { rows } = await client.query<{ status: string | null }>("SELECT pg_xact_status($1::xid8) AS status", [xid]);
    const status = rows[0]!.status;
    if (status === "committed") outcome.committed++;
    else if (status === "aborted") outcome.aborted++;
    else outcome.inProgress++;
  }
  return outcome;
}

/** One stored upload of a scenario file, with what "complete" needs: every session, message, object and the redaction report. */
export interface StoredUpload {
  id: string;
  fileName: string;
  sessionCount: number;
  sessions: { id: string; messageCount: number }[];
  /** Sessions whose message or object rows do not number what the session row says. */
  brokenSessions: number;
  redacted: boolean;
}

export function isComplete(u: StoredUpload): boolean {
  return u.sessions.length === u.sessionCount && u.brokenSessions === 0 && u.redacted;
}

/** Every upload row named after one of `fileNames`, with its sessions (by ordinal) and completeness. */
export async function storedUploads(client: pg.Client, fileNames: string[]): Promise<StoredUpload[]> {
  const { rows } = await client.query<{
    id: string;
    fileName: string;
    sessionCount: number;
    sessions: { id: string; messageCount: number }[] | null;
    brokenSessions: number;
    redacted: boolean;
  }>(
    `SELECT u.id, u."fileName", u."sessionCount",
            (SELECT json_agg(json_build_object('id', s.id, 'messageCount', s."messageCount") ORDER BY s.ordinal) FROM "TraceSession" s WHERE s."uploadId" = u.id) AS sessions,
            (SELECT count(*)::int FROM "TraceSession" s WHERE s."uploadId" = u.id AND (
               s."messageCount" <> (SELECT count(*) FROM "TraceMessage" m WHERE m."sessionId" = s.id)
               OR s."objectCount" <> (SELECT count(*) FROM "ContextObjectRow" o WHERE o."sessionId" = s.id))) AS "brokenSessions",
            EXISTS (SELECT 1 FROM "UploadRedaction" r WHERE r."uploadId" = u.id) AS redacted
       FROM "Upload" u WHERE u."fileName" = ANY($1)`,
    [fileNames],
  );
  return rows.map((r) => ({ ...r, sessions: r.sessions ?? [] }));
}

/**
 * Half-imported data anywhere in the database (every upload, not only the scenario's): uploads
 * whose session rows do not number their sessionCount, sessions whose message or object rows do not
 * number their counts, and redaction reports without their upload. Each is 0 when every import was
 * all or nothing.
 */
export async function halfImportedRows(client: pg.Client): Promise<{ uploads: number; sessions: number; redactions: number }> {
  const { rows } = await client.query<{ uploads: number; sessions: number; redactions: number }>(
    `SELECT
       (SELECT count(*)::int FROM "Upload" u WHERE u."sessionCount" <> (SELECT count(*) FROM "TraceSession" s WHERE s."uploadId" = u.id)) AS uploads,
       (SELECT count(*)::int FROM "TraceSession" s WHERE
          s."messageCount" <> (SELECT count(*) FROM "TraceMessage" m WHERE m."sessionId" = s.id)
          OR s."objectCount" <> (SELECT count(*) FROM "ContextObjectRow" o WHERE o."sessionId" = s.id)) AS sessions,
       (SELECT count(*)::int FROM "UploadRedaction" r WHERE NOT EXISTS (SELECT 1 FROM "Upload" u WHERE u.id = r."uploadId")) AS redactions`,
  );
  return rows[0]!;
}

/** Blobs in the studio's local store that no row names (what an import killed before its commit leaves behind). */
export async function unreferencedBlobs(dbUrl: string, dataDir: string): Promise<number> {
  const db = createDb(dbUrl);
  try {
    const referenced = await referencedBlobKeys(db);
    let count = 0;
    for await (const blob of localBlobStore(dataDir).list("uploads")) if (!referenced.has(blob.key)) count++;
    return count;
  } finally {
    await db.$disconnect();
  }
}

/** Temp files of upload requests left in data/tmp/uploads (a killed request's raw and redacted copies). */
export async function uploadTempFiles(dataDir: string): Promise<number> {
  return (await readdir(join(dataDir, "tmp", "uploads")).catch(() => [] as string[])).length;
}

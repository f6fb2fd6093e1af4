import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import pg from "pg";
import type { UploadResponse } from "../../../server/trace/import/upload-response";
import { makeClaudeJsonl } from "../make-claude-jsonl";
import {
  halfImportedRows,
  isComplete,
  openImportTransactions,
  storedUploads,
  transactionOutcomes,
  unreferencedBlobs,
  uploadTempFiles,
  type OpenImport,
  type StoredUpload,
} from "./kill-checks";
import { round } from "./latency";
import type { LoadAccount } from "./seed-load";
import { StudioClient } from "./studio-client";
import type { StudioServer } from "./studio-server";

export interface KillScenarioResult {
  uploads: number;
  megabytesEach: number;
  /** From the first PUT to the SIGKILL. */
  killedAfterSeconds: number;
  /**
   * At least one upload had been answered and at least one import transaction seen writing rows
   * (pg_stat_activity) right before the kill ended aborted (pg_xact_status): the kill cut an import.
   */
  killedMidImport: boolean;
  /** Import transactions seen open with rows written at the last check before the kill, and the oldest one's age. */
  openTransactionsAtKill: number;
  oldestOpenMsAtKill: number;
  /** How those transactions ended: aborted by the kill, or committed in the moment between the check and the kill. */
  transactionsAborted: number;
  transactionsCommitted: number;
  /** Answered 201 imported before the kill; the rest got no answer. */
  acknowledged: number;
  unanswered: number;
  /** From the kill until PostgreSQL showed no import transaction open (null: still open after 60 s). */
  transactionsGoneSeconds: number | null;
  restartSeconds: number;
  afterRestart: {
    acknowledgedIntact: number;
    /** Acknowledged uploads missing, stored twice, incomplete or not as answered. */
    acknowledgedLost: number;
    /** Unanswered uploads whose transaction committed just before the kill, complete. */
    committedUnanswered: number;
    /** Unanswered uploads with rows that are not complete (or stored twice). */
    partialUnanswered: number;
    halfImported: { uploads: number; sessions: number; redactions: number };
    tempFilesLeft: number;
    unreferencedBlobs: number;
  };
  retry: { files: number; imported: number; duplicate: number; errors: number; errorSamples: string[]; seconds: number };
  final: { exactlyOnce: number; missing: number; duplicated: number; incomplete: number; halfImported: number; unreferencedBlobs: number };
}

interface Ack {
  uploadId: string;
  sessions: { id: string; messages: number }[];
}

/**
 * Scenario C (issue #7): `count` distinct Claude Code traces (salted apart from scenario B's) are
 * PUT at once, and the studio's whole process group is SIGKILLed as soon as at least one upload has
 * been answered 201 and PostgreSQL shows another import's transaction open with rows written (a
 * database-visible signal, not a sleep: the files are under TRACEFOLD_ASYNC_IMPORT_MB, so each is
 * imported in one transaction inside its request); PostgreSQL's commit log then shows whether
 * those transactions were cut (aborted) or had just committed. The studio is started again on the same
 * database; then every answered upload must be stored as answered and complete, no half-imported
 * row may exist anywhere, and re-uploading every unanswered file must import it once (or answer
 * duplicate when its transaction had committed just before the kill), leaving one upload per file.
 */
export async function runKillScenario(options: {
  server: StudioServer;
  restart: () => Promise<StudioServer>;
  dbUrl: string;
  dataDir: string;
  account: LoadAccount;
  sourcePath: string;
  workDir: string;
  count: number;
  megabytes: number;
}): Promise<KillScenarioResult> {
  const { server, dbUrl, dataDir, account, count } = options;
  const files: { name: string; body: Buffer }[] = [];
  for (let i = 0; i < count; i++) {
    const name = `load-kill-${String(i).padStart(2, "0")}.jsonl`;
    const path = join(options.workDir, name);
    await makeClaudeJsonl(options.sourcePath, path, options.megabytes * 1024 * 1024, `k${i}_`);
    files.push({ name, body: await readFile(path) });
  }
  const names = files.map((f) => f.name);
  const megabytesEach = round((await stat(join(options.workDir, names[0]!))).size / 1024 / 1024);
  const watch = new pg.Client({ connectionString: dbUrl });
  await watch.connect();
  try {
    const client = new StudioClient(server.origin);
    await client.signIn(account.email, account.password);
    const acks = new Map<string, Ack>();
    let settled = 0;
    const started = performance.now();
    const inFlight = files.map((file) =>
      put(client, file)
        .then((answer) => {
          if (answer.status === 201 && answer.body.ok && answer.body.data.status === "imported")
            acks.set(file.name, { uploadId: answer.body.data.uploadId, sessions: answer.body.data.sessions });
        })
        .catch(() => undefined) // no answer: the studio died first
        .finally(() => settled++),
    );
    let open: OpenImport[] = [];
    while (settled < files.length && performance.now() - started < 600_000) {
      open = await openImportTransactions(watch);
      if (open.length > 0 && acks.size > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const killedAfterSeconds = round((performance.now() - started) / 1000);
    const killedAt = performance.now();
    await server.kill();
    await Promise.all(inFlight);
    const transactionsGoneSeconds = (await until(async () => (await openImportTransactions(watch)).length === 0, 60_000))
      ? round((performance.now() - killedAt) / 1000)
      : null;
    const ended = await transactionOutcomes(
      watch,
      open.map((t) => t.xid),
    );

    const restarting = performance.now();
    const restarted = await options.restart();
    const restartSeconds = round((performance.now() - restarting) / 1000);

    const afterKill = await storedUploads(watch, names);
    let acknowledgedIntact = 0,
      acknowledgedLost = 0,
      committedUnanswered = 0,
      partialUnanswered = 0;
    for (const file of files) {
      const rows = afterKill.filter((r) => r.fileName === file.name);
      const ack = acks.get(file.name);
      if (ack) {
        if (rows.length === 1 && storedAsAnswered(rows[0]!, ack)) acknowledgedIntact++;
        else acknowledgedLost++;
      } else if (rows.length === 1 && isComplete(rows[0]!)) committedUnanswered++;
      else if (rows.length > 0) partialUnanswered++;
    }
    const halfImported = await halfImportedRows(watch);
    const tempFilesLeft = await uploadTempFiles(dataDir);
    const blobsAfterKill = await unreferencedBlobs(dbUrl, dataDir);

    // Every unanswered file again, at once, as a user would after the restart.
    const retryClient = new StudioClient(restarted.origin);
    await retryClient.signIn(account.email, account.password);
    const retryFiles = files.filter((f) => !acks.has(f.name));
    const retryStarted = performance.now();
    let imported = 0,
      duplicate = 0;
    const errors: string[] = [];
    await Promise.all(
      retryFiles.map(async (file) => {
        const committed = afterKill.find((r) => r.fileName === file.name && isComplete(r));
        try {
          const { status, body } = await put(retryClient, file);
          if (status === 201 && body.ok && body.data.status === "imported" && !committed) imported++;
          else if (status === 200 && body.ok && body.data.status === "duplicate" && committed?.id === body.data.uploadId) duplicate++;
          else
            errors.push(
              `${file.name}: HTTP ${status} ${body.ok ? body.data.status : body.message}${committed ? " (its upload had committed before the kill)" : ""}`,
            );
        } catch (error) {
          errors.push(`${file.name}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }),
    );
    const retrySeconds = round((performance.now() - retryStarted) / 1000);

    const finalRows = await storedUploads(watch, names);
    let exactlyOnce = 0,
      missing = 0,
      duplicated = 0,
      incomplete = 0;
    for (const file of files) {
      const rows = finalRows.filter((r) => r.fileName === file.name);
      const ack = acks.get(file.name);
      if (rows.length === 0) missing++;
      else if (rows.length > 1) duplicated++;
      else if (!isComplete(rows[0]!) || (ack && !storedAsAnswered(rows[0]!, ack))) incomplete++;
      else exactlyOnce++;
    }
    const finalHalf = await halfImportedRows(watch);
    return {
      uploads: count,
      megabytesEach,
      killedAfterSeconds,
      killedMidImport: acks.size > 0 && ended.aborted > 0,
      openTransactionsAtKill: open.length,
      oldestOpenMsAtKill: round(Math.max(0, ...open.map((t) => t.ageMs))),
      transactionsAborted: ended.aborted,
      transactionsCommitted: ended.committed,
      acknowledged: acks.size,
      unanswered: count - acks.size,
      transactionsGoneSeconds,
      restartSeconds,
      afterRestart: {
        acknowledgedIntact,
        acknowledgedLost,
        committedUnanswered,
        partialUnanswered,
        halfImported,
        tempFilesLeft,
        unreferencedBlobs: blobsAfterKill,
      },
      retry: { files: retryFiles.length, imported, duplicate, errors: errors.length, errorSamples: errors.slice(0, 5), seconds: retrySeconds },
      final: {
        exactlyOnce,
        missing,
        duplicated,
        incomplete,
        halfImported: finalHalf.uploads + finalHalf.sessions + finalHalf.redactions,
        unreferencedBlobs: await unreferencedBlobs(dbUrl, dataDir),
      },
    };
  } finally {
    await watch.end();
  }
}

/** PUT /api/uploads as the drop zone sends a file; the status and the decoded answer. */
async function put(client: StudioClient, file: { name: string; body: Buffer }): Promise<{ status: number; body: UploadResponse }> {
  const response = await client.fetch(`/api/uploads?name=${encodeURIComponent(file.name)}`, {
    method: "PUT",
    headers: { "content-type": "application/octet-stream" },
    body: new Uint8Array(file.body),
  });
  return { status: response.status, body: (await response.json()) as UploadResponse };
}

/** The row is the answered upload, complete, with the answered sessions and their message counts. */
function storedAsAnswered(row: StoredUpload, ack: Ack): boolean {
  if (row.id !== ack.uploadId || !isComplete(row) || row.sessions.length !== ack.sessions.length) return false;
  return ack.sessions.every((s, i) => row.sessions[i]!.id === s.id && row.sessions[i]!.messageCount === s.messages);
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

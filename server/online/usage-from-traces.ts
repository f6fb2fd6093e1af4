import { randomUUID } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { sessionUsageRows } from "@/lib/online/usage/trace-usage";
import type { UsageRow } from "@/lib/online/usage/schema";
import { USAGE_CSV_HEADER, usageRowToCsv } from "@/lib/online/usage/write-csv";
import type { FormatId, Message, Session } from "@/lib/trace/model";
import type { Db } from "../db/client";
import { dataDir, type BlobStore } from "../storage/blob-store";
import { importUsageLog, type UsageImportOutcome } from "./import-usage-log";

/** Whose traffic a call counts as: the uploader of its trace (a team member) or the session itself. */
export type TraceAccount = "uploader" | "session";

export type TraceUsageOutcome = UsageImportOutcome | { status: "empty"; sessions: number; skipped: number };

/**
 * Builds a usage log from the provider usage stored with the uploaded traces (Claude Code, Codex,
 * mini-swe-agent… record it per model call) and imports it exactly like an uploaded log: the rows
 * are written as a canonical CSV, kept in the blob store under its sha256 and summed into slots, so
 * every chart, export and the CLI (on the downloaded CSV) work on it. The same traces give the
 * same bytes, so asking twice finds the log already built (`duplicate`). With no usage in any
 * stored trace the answer is `empty` and nothing is written.
 */
export async function usageLogFromTraces(options: { db: Db; store: BlobStore; userId: string; account: TraceAccount }): Promise<TraceUsageOutcome> {
  const { db } = options;
  const sessions = await db.traceSession.findMany({
    where: { providerInputTokens: { not: null } },
    select: { id: true, externalId: true, format: true, startedAt: true, upload: { select: { uploadedBy: { select: { email: true } } } } },
    orderBy: [{ createdAt: "asc" }, { uploadId: "asc" }, { ordinal: "asc" }],
  });
  const rows: UsageRow[] = [];
  let skipped = 0;
  for (const s of sessions) {
    const messages = await db.traceMessage.findMany({
      where: { sessionId: s.id, usage: { not: null } },
      select: { index: true, timestamp: true, model: true, usage: true },
      orderBy: { index: "asc" },
    });
    const session: Session = {
      id: s.externalId,
      format: s.format as FormatId,
      title: "",
      compactions: [],
      models: [],
      ...(s.startedAt ? { startedAt: s.startedAt } : {}),
      messages: messages.map((m) => ({
        index: m.index,
        role: "assistant",
        parts: [],
        source: { file: "", line: 0 },
        ...(m.timestamp ? { timestamp: m.timestamp } : {}),
        ...(m.model ? { model: m.model } : {}),
        usage: JSON.parse(m.usage!) as Message["usage"],
      })),
    };
    const account = options.account === "session" ? s.externalId : (s.upload.uploadedBy?.email ?? "unknown-uploader");
    const converted = sessionUsageRows(session, { account, surface: s.format });
    rows.push(...converted.rows);
    skipped += converted.skipped;
  }
  if (rows.length === 0) return { status: "empty", sessions: sessions.length, skipped };
  rows.sort((a, b) => a.timestamp - b.timestamp || a.account.localeCompare(b.account));

  const dir = join(dataDir(), "tmp", "uploads");
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${randomUUID()}.csv`);
  try {
    await writeFile(path, `${USAGE_CSV_HEADER}\n${rows.map(usageRowToCsv).join("\n")}\n`);
    const fileName = `usage-from-traces-${options.account}-${rows.length}-calls.csv`;
    return await importUsageLog({ db, store: options.store, path, fileName, format: "csv", userId: options.userId });
  } finally {
    await rm(path, { force: true });
  }
}

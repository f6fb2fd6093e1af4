import { createHash } from "node:crypto";
import { compareSessionOrder, externalIdOf } from "@/lib/ingest/otlp/received-span";
import { createAnalyzer } from "@/lib/analysis/analyze";
import { buildOtelSession } from "@/lib/trace/importers/otel-genai";
import type { BlobStore } from "../../storage/blob-store";
import type { ImportedSessionSummary } from "../../trace/import/import-trace-file";
import { sessionRowData, writeSessionContent, type Tx } from "../../trace/import/write-sessions";

/** Issues kept on the session's upload row, as for file imports. */
const MAX_ISSUES = 200;

/**
 * The Upload row an OTLP session lives under: one per session key, found by this stable
 * pseudo-hash (no file's sha256 can equal it, the input has a prefix no file content is hashed with).
 */
export function otlpUploadSha(sessionKey: string): string {
  return createHash("sha256").update(`tracefold-otlp-session\0${sessionKey}`).digest("hex");
}

/**
 * The session key of an upload that holds an OTLP session (`otlp:<key>`, with the matching
 * pseudo-hash), else undefined: deleting that upload deletes the key's stored spans too, or the
 * next delivery would rebuild the deleted session from them.
 */
export function otlpSessionKeyOf(upload: { fileName: string; sha256: string }): string | undefined {
  if (!upload.fileName.startsWith("otlp:")) return undefined;
  const key = upload.fileName.slice("otlp:".length);
  return otlpUploadSha(key) === upload.sha256 ? key : undefined;
}

/**
 * Rebuilds the session of `sessionKey` from every span stored under it, inside the caller's
 * transaction (which holds the key's lock): the spans in session order are one OTLP JSON record
 * each, parsed by the OTel GenAI importer as one session, analysed and written over the previous
 * version — same TraceSession id, so links and review contexts keep pointing at it; its messages,
 * objects and compactions replaced. The upload's blob is the records as JSONL (re-importable as a
 * file). A key left without spans, or whose spans hold no message yet, has no session: a previous
 * one is deleted. Importer problems in single spans (a message attribute that is not JSON) are
 * kept as the upload's issues rather than refusing spans already accepted.
 */
export async function rebuildOtlpSession(
  tx: Tx,
  store: BlobStore,
  sessionKey: string,
  options: { userId?: string | undefined } = {},
): Promise<ImportedSessionSummary | undefined> {
  const sha256 = otlpUploadSha(sessionKey);
  const spans = (await tx.otlpSpan.findMany({ where: { sessionKey }, select: { traceId: true, spanId: true, startNs: true, payload: true } })).sort(
    compareSessionOrder,
  );
  const upload = await tx.upload.findUnique({ where: { sha256 }, include: { sessions: { orderBy: { ordinal: "asc" }, take: 1 } } });
  const records = spans.map((s) => JSON.parse(s.payload) as unknown);
  const { session, issues } = buildOtelSession(records, { id: externalIdOf(sessionKey), file: `otlp:${sessionKey}` });
  if (session.messages.length === 0) {
    if (upload) await tx.upload.delete({ where: { id: upload.id } });
    return undefined;
  }
  const analyzed = createAnalyzer().analyze(session);
  const bytes = Buffer.from(spans.map((s) => s.payload).join("\n") + "\n", "utf8");
  const blob = await store.putBytes(bytes, "uploads");
  const uploadData = {
    bytes: bytes.length,
    storageKey: blob.key,
    sessionCount: 1,
    issueCount: issues.length,
    issues: JSON.stringify(issues.slice(0, MAX_ISSUES)),
  };
  const previous = upload?.sessions[0];
  let sessionId: string;
  if (upload && previous) {
    await tx.upload.update({ where: { id: upload.id }, data: uploadData });
    await tx.traceMessage.deleteMany({ where: { sessionId: previous.id } });
    await tx.contextObjectRow.deleteMany({ where: { sessionId: previous.id } });
    await tx.nativeCompactionRow.deleteMany({ where: { sessionId: previous.id } });
    await tx.traceSession.update({ where: { id: previous.id }, data: sessionRowData(analyzed) });
    sessionId = previous.id;
  } else {
    if (upload) await tx.upload.delete({ where: { id: upload.id } });
    const created = await tx.upload.create({
      data: { sha256, fileName: `otlp:${sessionKey}`, format: "otel_genai_spans", ...uploadData, ...(options.userId ? { uploadedById: options.userId } : {}) },
    });
    const row = await tx.traceSession.create({ data: { uploadId: created.id, ordinal: 0, ...sessionRowData(analyzed) } });
    sessionId = row.id;
  }
  await writeSessionContent(tx, sessionId, analyzed);
  return { id: sessionId, title: analyzed.session.title, messages: analyzed.stats.messages, toolCalls: analyzed.stats.toolCalls };
}

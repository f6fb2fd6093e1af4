import { buildContextIndex } from "@/lib/compaction/context/objects";
import { SESSION_SUMMARY_VERSION, summarizeSession, type SessionSummary } from "@/lib/evaluation/suites/session-summary";
import type { Db } from "../../db/client";
import { loadAnalyzedSession, serverTokenizer } from "../../trace/session/load-analyzed-session";
import type { EvalSettings } from "../run-settings";

/** Rows read per query: well under SQLite's and PostgreSQL's bound-parameter limits. */
const CHUNK = 500;

/**
 * The lib/evaluation summaries of stored sessions for one tokenizer setting, in the order of `ids`
 * (ids of deleted sessions are left out). Each is read from SessionSummaryRow; only a session
 * without a current row is parsed (loadAnalyzedSession), summarised and stored, so resolving a
 * suite parses a trace once per tokenizer setting, not once per run. The summary's `id` is the
 * TraceSession id, as the runner evaluates sessions under it.
 */
export async function loadSessionSummaries(db: Db, ids: readonly string[], tokenizer: EvalSettings["tokenizer"] = "session"): Promise<SessionSummary[]> {
  const cached = new Map<string, SessionSummary>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await db.sessionSummaryRow.findMany({
      where: { sessionId: { in: ids.slice(i, i + CHUNK) }, tokenizer, version: SESSION_SUMMARY_VERSION },
      select: { sessionId: true, summary: true },
    });
    for (const row of rows) cached.set(row.sessionId, { ...(JSON.parse(row.summary) as SessionSummary), id: row.sessionId });
  }
  const out: SessionSummary[] = [];
  for (const id of ids) {
    const summary = cached.get(id) ?? (await computeSummary(db, id, tokenizer));
    if (summary) out.push(summary);
  }
  return out;
}

async function computeSummary(db: Db, id: string, tokenizerSetting: EvalSettings["tokenizer"]): Promise<SessionSummary | null> {
  const loaded = await loadAnalyzedSession(db, id);
  if (!loaded) return null;
  const session = { ...loaded.session, id };
  let index = loaded.index;
  if (tokenizerSetting !== "session") {
    const tokenizer = serverTokenizer(tokenizerSetting);
    if (tokenizer !== loaded.tokenizer) index = buildContextIndex(session, tokenizer);
  }
  const summary = summarizeSession(session, index);
  const data = { version: SESSION_SUMMARY_VERSION, summary: JSON.stringify(summary) };
  // Two requests may summarise the same session at once; the second upsert writes the same row.
  try {
    await db.sessionSummaryRow.upsert({
      where: { sessionId_tokenizer: { sessionId: id, tokenizer: tokenizerSetting } },
      create: { sessionId: id, tokenizer: tokenizerSetting, ...data },
      update: data,
    });
  } catch (error) {
    if ((error as { code?: string }).code !== "P2002") throw error;
  }
  return summary;
}

/** Every stored session's id in suite order: oldest import first, then by position in its file. */
export async function listSessionIdsInOrder(db: Db): Promise<string[]> {
  const rows = await db.traceSession.findMany({ select: { id: true }, orderBy: [{ createdAt: "asc" }, { uploadId: "asc" }, { ordinal: "asc" }] });
  return rows.map((r) => r.id);
}

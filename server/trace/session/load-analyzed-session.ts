import { buildContextIndex } from "@/lib/compaction/context/objects";
import { cachedTokenizer } from "@/lib/tokens/cache";
import { isTokenizerId, type Tokenizer, type TokenizerId } from "@/lib/tokens/tokenizer";
import type { CompactionKind, FormatId, Message, NativeCompaction, Session } from "@/lib/trace/model";
import type { AnalyzedSession } from "@/lib/analysis/analyze";
import { sessionStats } from "@/lib/analysis/session-stats";
import type { Db } from "../../db/client";

/** One cached tokenizer per id for the whole server process: replays never re-tokenise content. */
const tokenizers = new Map<TokenizerId, Tokenizer>();
export function serverTokenizer(id: TokenizerId): Tokenizer {
  let tokenizer = tokenizers.get(id);
  if (!tokenizer) tokenizers.set(id, (tokenizer = cachedTokenizer(id)));
  return tokenizer;
}

/**
 * Recently loaded sessions, so moving the cut slider does not reload a 10,000-message session. Each
 * entry keeps the fingerprint of the row it was built from: a session rebuilt since — a growing OTLP
 * conversation, rebuilt by this or any other studio process — has a new stored file and counts, so
 * it is loaded again rather than served stale.
 */
const recent = new Map<string, { fingerprint: string; loaded: AnalyzedSession & { tokenizer: Tokenizer } }>();
const RECENT_LIMIT = 4;

/**
 * Rebuilds a stored session as the canonical lib model with its context index, using the
 * tokenizer it was imported with (same algorithm, same ids and counts as at import).
 */
export async function loadAnalyzedSession(db: Db, sessionId: string): Promise<(AnalyzedSession & { tokenizer: Tokenizer }) | null> {
  const row = await db.traceSession.findUnique({
    where: { id: sessionId },
    select: { messageCount: true, tokens: true, nativeCompactions: true, upload: { select: { storageKey: true } } },
  });
  if (!row) {
    recent.delete(sessionId);
    return null;
  }
  const fingerprint = `${row.upload.storageKey}:${row.messageCount}:${row.tokens}:${row.nativeCompactions}`;
  const hit = recent.get(sessionId);
  if (hit?.fingerprint === fingerprint) return hit.loaded;
  const stored = await loadStoredSession(db, sessionId);
  if (!stored) return null;
  const { session } = stored;
  const tokenizer = storedTokenizer(stored.tokenizer);
  const index = buildContextIndex(session, tokenizer);
  const loaded = { session, index, stats: sessionStats(session, index), tokenizer };
  recent.delete(sessionId);
  recent.set(sessionId, { fingerprint, loaded });
  if (recent.size > RECENT_LIMIT) recent.delete(recent.keys().next().value!);
  return loaded;
}

/** Drops deleted sessions from this process's cache, so a replay cannot serve what was deleted. */
export function forgetAnalyzedSessions(sessionIds: Iterable<string>): void {
  for (const id of sessionIds) recent.delete(id);
}

/**
 * A stored session with the tokenizer it was imported with, not analysed and not cached: for work
 * that walks many sessions once and builds its own index (rollouts, simulations), so the session is
 * not tokenised twice and the viewer's small cache is not churned.
 */
export async function loadSessionForWalk(db: Db, sessionId: string): Promise<{ session: Session; tokenizer: Tokenizer } | null> {
  const stored = await loadStoredSession(db, sessionId);
  return stored ? { session: stored.session, tokenizer: storedTokenizer(stored.tokenizer) } : null;
}

/** The server's tokenizer for the id a session row stores (o200k for an id this version does not know). */
function storedTokenizer(id: string): Tokenizer {
  return serverTokenizer(isTokenizerId(id) ? id : "o200k");
}

/**
 * A stored session as the canonical lib model, without analysing it: what an export needs (no
 * tokenizing, no context index, and the replay cache above is left to replays).
 */
export async function loadStoredSession(db: Db, sessionId: string): Promise<{ session: Session; tokenizer: string } | null> {
  const row = await db.traceSession.findUnique({ where: { id: sessionId }, include: { upload: { select: { fileName: true } } } });
  if (!row) return null;
  const [messageRows, compactionRows] = await Promise.all([
    db.traceMessage.findMany({ where: { sessionId }, orderBy: { index: "asc" } }),
    db.nativeCompactionRow.findMany({ where: { sessionId }, orderBy: { beforeMessage: "asc" } }),
  ]);
  const file = row.upload.fileName;
  const messages: Message[] = messageRows.map((m) => ({
    index: m.index,
    role: m.role as Message["role"],
    parts: JSON.parse(m.parts) as Message["parts"],
    source: { file, line: m.sourceLine },
    ...(m.records ? { records: JSON.parse(m.records) as NonNullable<Message["records"]> } : {}),
    ...(m.timestamp ? { timestamp: m.timestamp } : {}),
    ...(m.model ? { model: m.model } : {}),
    ...(m.usage ? { usage: JSON.parse(m.usage) as Message["usage"] } : {}),
    ...(m.meta ? { meta: JSON.parse(m.meta) as Message["meta"] } : {}),
  }));
  const compactions: NativeCompaction[] = compactionRows.map((c) => ({
    kind: c.kind as CompactionKind,
    beforeMessage: c.beforeMessage,
    source: { file, line: c.sourceLine },
    ...(c.trigger ? { trigger: c.trigger } : {}),
    ...(c.preTokens !== null ? { preTokens: c.preTokens } : {}),
    ...(c.summary ? { summary: c.summary } : {}),
    ...(c.timestamp ? { timestamp: c.timestamp } : {}),
  }));
  const session: Session = {
    id: row.externalId,
    format: row.format as FormatId,
    title: row.title,
    messages,
    compactions,
    models: JSON.parse(row.models) as string[],
    ...(row.startedAt ? { startedAt: row.startedAt } : {}),
  };
  return { session, tokenizer: row.tokenizer };
}

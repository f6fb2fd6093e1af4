import type { ContextIndex } from "@/lib/compaction/context/objects";
import { safeCutPoints } from "@/lib/compaction/policies/cut-points";
import type { Session } from "@/lib/trace/model";
import type { Db } from "../db/client";
import { loadAnalyzedSession } from "../trace/session/load-analyzed-session";
import type { SafeCut } from "./compaction-api";

/** What the replay page needs before any run: the session's size and the cuts the slider snaps to. */
export interface CompactionSetup {
  sessionId: string;
  externalId: string;
  title: string;
  format: string;
  messageCount: number;
  /** Tokens of the whole session. */
  tokens: number;
  safeCuts: SafeCut[];
}

/**
 * Safe cut points with their prefix tokens. A session without any (one message, or calls never
 * answered until the end) offers the whole session as its only cut, so the slider always has one.
 */
export function listSafeCuts(session: Session, index: ContextIndex): SafeCut[] {
  const cuts = safeCutPoints(session);
  if (cuts.length === 0 && session.messages.length > 0) cuts.push(session.messages.length);
  return cuts.map((cut) => ({ cut, tokens: index.prefixTokens[cut] ?? 0 }));
}

/** Null for unknown sessions. Loads (and caches) the analysed session the runs will reuse. */
export async function getCompactionSetup(db: Db, sessionId: string): Promise<CompactionSetup | null> {
  const loaded = await loadAnalyzedSession(db, sessionId);
  if (!loaded) return null;
  const { session, index } = loaded;
  return {
    sessionId,
    externalId: session.id,
    title: session.title || session.id,
    format: session.format,
    messageCount: session.messages.length,
    tokens: index.prefixTokens[session.messages.length] ?? 0,
    safeCuts: listSafeCuts(session, index),
  };
}

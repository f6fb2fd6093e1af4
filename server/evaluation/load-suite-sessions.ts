import { buildContextIndex } from "@/lib/compaction/context/objects";
import type { SuiteSession } from "@/lib/evaluation/runner/evaluate-suite";
import type { Tokenizer } from "@/lib/tokens/tokenizer";
import type { Session } from "@/lib/trace/model";
import type { Db } from "../db/client";
import { loadAnalyzedSession, serverTokenizer } from "../trace/session/load-analyzed-session";
import type { EvalSettings } from "./run-settings";

/** A session ready for lib/evaluation, with the tokenizer its counts use. */
export interface LoadedSuiteSession extends SuiteSession {
  tokenizer: Tokenizer;
}

/**
 * Loads stored sessions for an evaluation. The evaluated session's `id` is the database id
 * (TraceSession.id), not the trace's own id: unit keys, stored results and drill-down links then
 * name exactly one stored session, even when two uploads carry the same trace id. Nothing in the
 * policies or the judge reads the id, so the figures are those of the trace's own id.
 * Sessions deleted since the run was created are skipped and returned in `missing`.
 */
export async function loadSuiteSessions(
  db: Db,
  sessionIds: readonly string[],
  settings: Pick<EvalSettings, "tokenizer">,
): Promise<{ sessions: LoadedSuiteSession[]; missing: string[] }> {
  const sessions: LoadedSuiteSession[] = [];
  const missing: string[] = [];
  for (const id of sessionIds) {
    const loaded = await loadAnalyzedSession(db, id);
    if (!loaded) {
      missing.push(id);
      continue;
    }
    const session: Session = { ...loaded.session, id };
    if (settings.tokenizer === "session") {
      sessions.push({ session, index: loaded.index, tokenizer: loaded.tokenizer });
    } else {
      const tokenizer = serverTokenizer(settings.tokenizer);
      sessions.push({ session, index: tokenizer === loaded.tokenizer ? loaded.index : buildContextIndex(session, tokenizer), tokenizer });
    }
  }
  return { sessions, missing };
}

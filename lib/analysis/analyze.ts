import { buildContextIndex, type ContextIndex } from "../compaction/context/objects";
import { cachedTokenizer } from "../tokens/cache";
import { tokenizerForModel } from "../tokens/choose";
import type { Tokenizer, TokenizerId } from "../tokens/tokenizer";
import type { Session } from "../trace/model";
import { sessionStats, type SessionStats } from "./session-stats";

/** A session with its context-object index and counts: what import stores and inspect prints. */
export interface AnalyzedSession {
  session: Session;
  index: ContextIndex;
  stats: SessionStats;
}

/**
 * Chooses tokenizers and builds indexes. One cached tokenizer per id is shared across every
 * session handed to the same analyzer, so repeated content (system prompts, re-read files) is
 * tokenised once.
 */
export function createAnalyzer(options: { tokenizer?: TokenizerId } = {}) {
  const tokenizers = new Map<TokenizerId, Tokenizer>();
  const tokenizerFor = (session: Session): Tokenizer => {
    const id = options.tokenizer ?? tokenizerForModel(session.models[0]);
    let tokenizer = tokenizers.get(id);
    if (!tokenizer) tokenizers.set(id, (tokenizer = cachedTokenizer(id)));
    return tokenizer;
  };
  return {
    tokenizerFor,
    analyze(session: Session): AnalyzedSession {
      const index = buildContextIndex(session, tokenizerFor(session));
      return { session, index, stats: sessionStats(session, index) };
    },
  };
}

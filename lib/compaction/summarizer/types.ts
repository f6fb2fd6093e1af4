import type { Message } from "../../trace/model";

/**
 * Writes the summary message of the summary families (seed 001's shared shape). The embedded one is
 * deterministic and extractive; an LLM summarizer calls a configured endpoint. Either way the
 * result is capped at `maxTokens`.
 */
export interface Summarizer {
  readonly id: string;
  summarize(request: SummaryRequest): Promise<string> | string;
}

export interface SummaryRequest {
  /** The messages being collapsed (after the policy's pre-trim, when it has one). */
  messages: Message[];
  /** A previous summary to fold in (re-compaction). */
  previousSummary?: string;
  /** Instructions in the harness's own words (its prompt's gist), for LLM summarizers. */
  instructions?: string;
  maxTokens: number;
  countTokens(text: string): number;
}

import { truncateMiddleToChars, truncateMiddleToTokens } from "./text";
import { partContent, rewritePart, type PretrimStep, type TrimEdit, type TrimItem } from "./types";

export interface CapItemLengthOptions {
  /** Which parts are capped: tool outputs only, or every text-bearing part. */
  scope: "tool-results" | "all";
  /** The cap and its unit. */
  limit: number;
  unit: "tokens" | "chars";
  /** middle: head + tail around a marker; head: the first `limit` chars then `[truncated]`. */
  mode: "middle" | "head";
  /** Rule id recorded on each edit (which harness constant this is). */
  rule: string;
}

/** Codex: tool outputs truncated middle at 10,000 tokens when recorded (TruncationPolicy::Tokens(10_000)). */
export const CODEX_TOOL_OUTPUT_CAP: CapItemLengthOptions = {
  scope: "tool-results",
  limit: 10_000,
  unit: "tokens",
  mode: "middle",
  rule: "codex/tool-output-10k-tokens",
};
/** OpenHands LLMSummarizingCondenser: each forgotten event middle-truncated to max_event_length = 10,000 chars. */
export const OPENHANDS_EVENT_CAP: CapItemLengthOptions = { scope: "all", limit: 10_000, unit: "chars", mode: "middle", rule: "openhands/max-event-length" };
/** OpenCode: tool results serialised for the summarizer at TOOL_OUTPUT_MAX_CHARS = 2,000 + "[truncated]". */
export const OPENCODE_TOOL_OUTPUT_CAP: CapItemLengthOptions = {
  scope: "tool-results",
  limit: 2_000,
  unit: "chars",
  mode: "head",
  rule: "opencode/tool-output-max-chars",
};

/**
 * A harness's per-item length cap on what the summarizer reads — the fixed-size counterpart of
 * seed 001's truncation moves (Codex's record-time cap, OpenHands' event cap, OpenCode's
 * serialisation cap). Nothing is spilled: these harnesses keep the original in their own storage.
 */
export function capItemLength(options: CapItemLengthOptions): PretrimStep {
  return (items, tokenizer) => {
    const edits: TrimEdit[] = [];
    const out: TrimItem[] = items.map((item) => {
      let current = item;
      item.message.parts.forEach((part, p) => {
        const isResult = part.type === "tool_result";
        if (options.scope === "tool-results" ? !isResult : !(isResult || part.type === "text" || part.type === "reasoning")) return;
        const content = partContent(part);
        const text = cut(content, options, (t) => tokenizer.count(t), item.results.get(p)?.tokens);
        if (text === content) return;
        const rewritten = rewritePart(current, p, text, tokenizer, options.rule);
        current = rewritten.item;
        edits.push(rewritten.edit);
      });
      return current;
    });
    const saved = edits.reduce((sum, e) => sum + e.tokensBefore - e.tokensAfter, 0);
    return {
      items: out,
      edits,
      sidecars: [],
      log: [`pre-trim ${options.rule}: ${edits.length} items over ${options.limit} ${options.unit} cut (${options.mode}), ${saved} tokens saved`],
    };
  };
}

function cut(content: string, options: CapItemLengthOptions, count: (t: string) => number, knownTokens: number | undefined): string {
  if (options.unit === "tokens") {
    const tokens = knownTokens ?? count(content);
    return tokens <= options.limit ? content : truncateMiddleToTokens(content, options.limit, count, tokens);
  }
  if (content.length <= options.limit) return content;
  return options.mode === "head" ? `${content.slice(0, options.limit)}\n[truncated]` : truncateMiddleToChars(content, options.limit);
}

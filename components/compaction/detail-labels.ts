/**
 * Labels of the fields policies put in `details` (lib/compaction/policies): written out, because
 * title-casing field names gives "Open ai messages" and "Gc loss". A field a policy adds without a
 * label here falls back to `humanize`, and tests/unit/compaction/detail-labels.test.ts fails until
 * it gets one. Object ids used as keys (the re-parenting map) are shown as they are.
 */
export const DETAIL_LABELS: Record<string, string> = {
  // self-gc: the planner
  planner: "Planner",
  id: "ID",
  model: "Model",
  latencyMs: "Latency",
  usage: "Planner token usage",
  inputTokens: "Input tokens",
  outputTokens: "Output tokens",
  xml: "Planner XML",
  parseErrors: "Parse errors",
  severity: "Severity",
  code: "Code",
  line: "Line",
  column: "Column",
  message: "Message",
  summary: "Planner summary",
  // self-gc: the rehearsal of the plan
  rehearsal: "Rehearsal",
  status: "Status",
  tokensBefore: "Tokens before",
  tokensAfter: "Tokens after",
  pruneRate: "Pruning rate",
  threshold: "Compression threshold",
  accepted: "Accepted edits",
  dropped: "Dropped edits",
  target: "Target",
  action: "Action",
  reason: "Reason",
  // self-gc: the cache-aware commit (seed 000: N_future · (C − C′) − L_cache_break − L_GC)
  commit: "Commit decision",
  benefit: "Commit benefit",
  costBefore: "Cost of a call before (C)",
  costAfter: "Cost of a call after (C′)",
  futureSavings: "Future savings, N_future × (C − C′)",
  cacheBreakLoss: "Cache-break cost (L_cache_break)",
  gcLoss: "GC cost: the planner call (L_GC)",
  commitNow: "Commit now",
  parentMap: "Re-parented objects",
  from: "Hung from",
  to: "Now under",
  provider: "Provider check",
  openAiMessages: "OpenAI messages",
  anthropicMessages: "Anthropic messages",
  fixes: "Fixes the projection needed",
  // generic-agent (seed 002's four stages)
  budgetChars: "Budget B (chars)",
  charsBefore: "Chars before",
  charsAfterStage2: "Chars after stage 2",
  charsAfter: "Chars after",
  lastPassCall: "Last compression pass at call",
  evictedMessages: "Evicted messages",
  // summarizing policies (collapse)
  splitPoint: "Split point (message #)",
  summaryAt: "Summary placed at (message #)",
  collapsedMessages: "Collapsed messages",
  collapsedTokens: "Collapsed tokens",
  summarizer: "Summarizer",
  summarizerInputMessages: "Summarizer input messages",
  summarizerInputTokens: "Summarizer input tokens",
  summaryTokens: "Summary tokens",
  // self-compact's rubric
  rubric: "Rubric",
  verdict: "Verdict",
  signal: "Signal",
};

/** Object ids (`function:read:3`, `conversation:user:2`) appear as keys of maps: never relabelled. */
const OBJECT_ID = /^(function|conversation):[\w.-]+:\d+$/;

/** The label of a details field: written out in DETAIL_LABELS, an object id as is, else humanized. */
export function detailLabel(key: string): string {
  return DETAIL_LABELS[key] ?? (OBJECT_ID.test(key) ? key : humanize(key));
}

/** `cacheBreakLoss` → "Cache break loss", `nFuture` → "N future": the fallback for unlabelled fields. */
export function humanize(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .toLowerCase()
    .replace(/^./, (c) => c.toUpperCase());
}

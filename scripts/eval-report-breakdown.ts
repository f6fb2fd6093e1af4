/**
 * Where a cut's prefix tokens sit, as the embedded Self-GC planner sees them — the `--diagnose`
 * line that says what blocks a plan from reaching the compression threshold: the protected tail,
 * tool results by the rule that judged them (kept as protected / recent / live handle / …, or
 * offered for fold / mask / prune), and the connective text no rule acts on (assistant narration
 * and tool-call arguments outside the protected tail, user requests). Percent of the prefix; the
 * planner's default sizes (lib/compaction/planner/rule-based/sizing.ts).
 */
import type { SuiteSession } from "../lib/evaluation/runner/evaluate-suite";
import { collectFacts } from "../lib/compaction/planner/rule-based/facts";
import { findLiveHandles } from "../lib/compaction/planner/rule-based/live-handles";
import { findSupersession } from "../lib/compaction/planner/rule-based/supersession";
import { findQuotedObjects } from "../lib/compaction/planner/rule-based/verbatim";
import { sizeRules } from "../lib/compaction/planner/rule-based/sizing";
import { judgeFunction } from "../lib/compaction/planner/rule-based/verdicts";
import { protectedSet } from "../lib/compaction/projection/protect";
import type { PlannerInput } from "../lib/compaction/planner/types";
import type { Tokenizer } from "../lib/tokens/tokenizer";
import { countPartTokens } from "../lib/tokens/message-tokens";

export function tokenBreakdown(s: SuiteSession, cut: number, tokenizer: Tokenizer): string {
  const { session, index } = s;
  const protect = protectedSet(session.messages, index, cut);
  const input: PlannerInput = { session, index, cut, protect, tokenizer };
  const facts = collectFacts(input);
  const signals = { live: findLiveHandles(input).byObject, quoted: findQuotedObjects(input), supersession: findSupersession(facts.functions) };
  const { verdictOptions } = sizeRules(input);
  const buckets = new Map<string, number>();
  const add = (key: string, tokens: number) => buckets.set(key, (buckets.get(key) ?? 0) + tokens);
  let protectedTokens = 0;
  for (let m = 0; m < cut; m++) {
    if (protect.messages.has(m)) {
      protectedTokens += index.messageTokens[m]!;
      continue;
    }
    const message = session.messages[m]!;
    for (const part of message.parts) {
      if (part.type === "tool_result") continue;
      add(part.type === "tool_call" ? "call_args" : `${message.role}_text`, countPartTokens(part, tokenizer));
    }
  }
  for (const f of facts.functions) {
    if (f.isProtected) continue;
    const verdict = judgeFunction(f, signals, verdictOptions);
    add("keep" in verdict ? `keep/${verdict.keep}` : `${verdict.action}/${verdict.reason.split(":")[0]}`, f.object.tokens);
  }
  const pct = (n: number) => ((100 * n) / Math.max(1, facts.prefixTokens)).toFixed(0);
  const turns = facts.conversations.length;
  const parts = [...buckets]
    .sort((a, b) => b[1] - a[1])
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k} ${pct(n)}%`);
  return `turns ${turns}, protected ${pct(protectedTokens)}%; ${parts.join(", ")}`;
}

import assert from "node:assert/strict";
import { test } from "node:test";
import { evaluateSuite } from "../../../lib/evaluation/runner/evaluate-suite";
import { JudgeVerdictSchema } from "../../../lib/evaluation/judge/verdict-schema";
import { findPolicy } from "../../../lib/compaction/policies/registry";
import { cachedTokenizer } from "../../../lib/tokens";
import { loadAllTraces } from "../../helpers/load-traces";

/**
 * The replay protocol on the real long Claude Code sessions (≥ 400 records, ~300 messages; a file whose
 * 400 records were mostly inline subagent threads is several short sessions, not one long), for the seed 000
 * baselines, Self-GC and one summarizing harness. Prints pruning and no-impact rates per policy
 * (run with `--test-reporter=spec` to see them) and pins only what must hold whatever the numbers:
 * the control never has an impact, every verdict fits the shared schema, and nothing fails.
 */
const POLICY_IDS = ["none", "oldest-turn", "tool-prune", "tool-mask-prune", "hybrid", "self-gc", "codex"];

test("replay report on the long Claude Code traces", async (t) => {
  const traces = await loadAllTraces();
  const sessions = traces
    .filter((trace) => trace.entry.format === "claude_code_jsonl")
    .flatMap((trace) => trace.sessions)
    .filter((s) => s.stats.records >= 400);
  assert.ok(sessions.length >= 2, `long Claude Code sessions: ${sessions.length}`);
  const tokenizer = cachedTokenizer("o200k");
  const rows = new Map<string, { cuts: number; noImpact: number; prune: number; missing: number; categories: Record<string, number> }>();
  for await (const item of evaluateSuite({ sessions, policies: POLICY_IDS.map((id) => ({ policy: findPolicy(id)! })), tokenizerFor: () => tokenizer })) {
    assert.equal(item.kind, "result", item.kind === "error" ? item.message : "");
    if (item.kind !== "result") continue;
    const { evaluation } = item;
    JudgeVerdictSchema.parse(evaluation.verdict);
    const row = rows.get(evaluation.policy) ?? { cuts: 0, noImpact: 0, prune: 0, missing: 0, categories: {} };
    row.cuts++;
    row.noImpact += evaluation.noImpact ? 1 : 0;
    row.prune += evaluation.pruneRate;
    row.missing += evaluation.verdict.evidence!.counts.lost;
    for (const [category, n] of Object.entries(evaluation.verdict.evidence!.counts.byCategory)) row.categories[category] = (row.categories[category] ?? 0) + n;
    rows.set(evaluation.policy, row);
  }
  t.diagnostic(`${sessions.length} sessions: ${sessions.map((s) => `${s.session.id.slice(0, 8)} (${s.session.messages.length} messages)`).join(", ")}`);
  for (const [policy, row] of rows) {
    const pct = (x: number) => `${((100 * x) / row.cuts).toFixed(1)}%`;
    t.diagnostic(
      `${policy.padEnd(16)} cuts ${row.cuts}  prune ${pct(row.prune)}  no-impact ${pct(row.noImpact)}  missing/cut ${(row.missing / row.cuts).toFixed(1)}  ${JSON.stringify(row.categories)}`,
    );
  }
  const none = rows.get("none")!;
  assert.equal(none.noImpact, none.cuts, "the control has no impact at any cut");
});

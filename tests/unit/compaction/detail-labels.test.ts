import assert from "node:assert/strict";
import { resolve } from "node:path";
import { test } from "node:test";
import { DETAIL_LABELS, detailLabel } from "../../../components/compaction/detail-labels";
import { POLICIES } from "../../../lib/compaction/policies/registry";
import { runPolicy } from "../../../lib/compaction/policies/run-policy";
import { selectCut } from "../../../lib/compaction/policies/select-cut";
import { createAnalyzer } from "../../../lib/analysis/analyze";
import { parseTrace } from "../../../lib/trace/parse-trace";
import { sourceFromFile } from "../../../server/trace/files/file-source";

/** A long Claude Code session (self-gc commits, summaries collapse) and a mini-swe-agent run. */
const TRACES = [
  "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/258c7280-ae70-4798-800f-63464d01a85d.jsonl",
  "mini_swe_agent_traj/SWE-agent__mini-swe-agent/output/deepseek_reasoner_dev/pvlib__pvlib-python-1707/pvlib__pvlib-python-1707.traj.json",
].map((p) => resolve(__dirname, "../../../../shared/traces", p));

/** Every key of every policy's `details` on these traces, at the policy's own cut and at 70% of the session. */
async function detailKeys(): Promise<Map<string, string>> {
  const keys = new Map<string, string>();
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) return value.forEach((item) => walk(item, `${path}[]`));
    if (value === null || typeof value !== "object") return;
    for (const [key, inner] of Object.entries(value)) {
      if (!keys.has(key)) keys.set(key, `${path}.${key}`);
      walk(inner, `${path}.${key}`);
    }
  };
  for (const file of TRACES) {
    const session = (await parseTrace(await sourceFromFile(file))).sessions[0]!;
    const analyzer = createAnalyzer();
    const { index } = analyzer.analyze(session);
    const tokenizer = analyzer.tokenizerFor(session);
    for (const policy of POLICIES) {
      for (const cut of [undefined, Math.floor(session.messages.length * 0.7)]) {
        const choice = selectCut(policy, session, index, tokenizer, { ...(cut !== undefined ? { cut } : {}), params: {} });
        const result = await runPolicy(policy, { session, index, cut: choice.cut, window: choice.window, tokenizer, params: {} });
        walk(result.details ?? {}, policy.id);
      }
    }
  }
  return keys;
}

test("every field a policy reports in its details has a written label", async () => {
  const keys = await detailKeys();
  for (const expected of ["openAiMessages", "gcLoss", "cacheBreakLoss", "parentMap", "splitPoint"])
    assert.ok(keys.has(expected), `${expected} should appear in some policy's details`);
  const unlabelled = [...keys].filter(([key]) => !(key in DETAIL_LABELS) && detailLabel(key) !== key).map(([key, path]) => path);
  assert.deepEqual(unlabelled, []);
});

test("labels say what the field is, not a title-cased field name", () => {
  assert.equal(detailLabel("openAiMessages"), "OpenAI messages");
  assert.equal(detailLabel("gcLoss"), "GC cost: the planner call (L_GC)");
  assert.equal(detailLabel("cacheBreakLoss"), "Cache-break cost (L_cache_break)");
  assert.equal(detailLabel("function:read:3"), "function:read:3");
  for (const label of Object.values(DETAIL_LABELS)) assert.doesNotMatch(label, /\bOpen ai\b|\bGc\b|\bXml\b|\bId\b/, label);
});

import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { buildContextIndex } from "@/lib/compaction/context/objects";
import { DEFAULT_PRICES } from "@/lib/rollout/billed-cost";
import { simulateSuite } from "@/lib/online/simulation/simulate-suite";
import { defaultSimWindow, parseTriggerLevel } from "@/lib/rollout/window";
import { callStarts } from "@/lib/rollout/continue-from-view";
import { findPolicy } from "@/lib/compaction/policies/registry";
import { createAnalyzer } from "@/lib/analysis/analyze";
import { parseTrace } from "@/lib/trace/parse-trace";
import { sourceFromFile } from "@/server/trace/files/file-source";
import { TRACES_DIR } from "../../helpers/traces";

const DIR = join(TRACES_DIR, "claude_code_jsonl/d-kimuson__claude-code-viewer/mock-global-claude-dir/projects/sample-project");
const FILES = ["fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl", "1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl"];

async function load() {
  const analyzer = createAnalyzer();
  const items = [];
  for (const f of FILES)
    for (const session of (await parseTrace(await sourceFromFile(join(DIR, f)))).sessions) items.push({ session, tokenizer: analyzer.tokenizerFor(session) });
  return items;
}

test("trigger levels read as shares or percentages, and anything else is refused with what was expected", () => {
  assert.equal(parseTriggerLevel("0.9"), 0.9);
  assert.equal(parseTriggerLevel("90"), 0.9);
  assert.equal(parseTriggerLevel("85%"), 0.85);
  assert.equal(parseTriggerLevel("1"), 1);
  assert.equal(parseTriggerLevel("0.5%"), 0.005);
  for (const bad of ["0", "101", "-5", "ninety", "", "90%%"]) assert.throws(() => parseTriggerLevel(bad), /share of the window above 0 and at most 1/, bad);
});

test("without a window, each session's trigger first fires at two thirds of its peak prompt", async () => {
  const [item] = await load();
  const index = buildContextIndex(item!.session, item!.tokenizer);
  const peak = Math.max(...callStarts(item!.session).map((k) => index.prefixTokens[k]!));
  const window = defaultSimWindow(item!.session, item!.tokenizer, 0.8);
  assert.ok(Math.abs(window * 0.8 - (peak * 2) / 3) <= 1, `${window} × 0.8 vs ${peak} × 2/3`);
});

test("pooled figures weigh every call equally, the curve averages the sessions reaching each call, cost only with prices", async () => {
  const items = await load();
  const policy = findPolicy("tool-prune")!;
  const report = await simulateSuite(items, policy, { trigger: 0.8 });
  assert.equal(report.sessions.length, items.length);
  assert.equal(report.window, null);
  assert.equal(report.pooled.cost, undefined);
  const calls = report.sessions.flatMap((s) => s.series);
  assert.equal(report.pooled.calls, calls.length);
  const mean = (i: 0 | 1) => Math.round((calls.reduce((a, c) => a + c[i], 0) / calls.length) * 100) / 100;
  assert.deepEqual(report.pooled.meanInputTokens, { without: mean(0), with: mean(1) });
  assert.equal(
    report.pooled.compactions,
    report.sessions.reduce((a, s) => a + s.compactions, 0),
  );
  assert.ok(report.pooled.compactions > 0 && report.pooled.reductionPct! > 0);
  assert.equal(report.curve.length, Math.max(...report.sessions.map((s) => s.calls)));
  // Two files, seven sessions: one of them has five inline subagent threads, each a session.
  assert.equal(items.length, 7);
  const first = report.curve[0]!;
  assert.equal(first.sessions, items.length, "every session makes a first call");
  assert.equal(
    first.without,
    Math.round((report.sessions.reduce((a, s) => a + s.series[0]![0], 0) / items.length) * 100) / 100,
    "rounded to cents of a token, as every mean",
  );
  assert.equal(report.curve.at(-1)!.sessions, 1);
  const priced = await simulateSuite(items, policy, { trigger: 0.8, prices: DEFAULT_PRICES });
  assert.ok(priced.pooled.cost && priced.pooled.cost.with > 0);
  assert.equal(priced.pooled.cost.without, Math.round(priced.sessions.reduce((a, s) => a + s.cost!.without, 0) * 1e6) / 1e6);
});

test("the trigger is handed to policies that have one, and a fixed window is used for every session", async () => {
  const items = await load();
  const low = await simulateSuite(items, findPolicy("tool-prune")!, { window: 40_000, trigger: 0.5 });
  const high = await simulateSuite(items, findPolicy("tool-prune")!, { window: 40_000, trigger: 1 });
  assert.deepEqual(
    low.sessions.map((s) => s.window),
    items.map(() => 40_000),
  );
  assert.ok(low.pooled.compactions > high.pooled.compactions, `${low.pooled.compactions} commits at 50% vs ${high.pooled.compactions} at 100%`);
  const none = await simulateSuite(items, findPolicy("none")!, { trigger: 0.5 });
  assert.equal(none.pooled.reductionPct, 0);
  assert.equal(none.pooled.compactions, 0);
});

import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { sessionUsageRows } from "@/lib/online/usage/trace-usage";
import { rolloutSession } from "@/lib/rollout/rollout-session";
import { findPolicy } from "@/lib/compaction/policies/registry";
import { createAnalyzer } from "@/lib/analysis/analyze";
import { parseTrace } from "@/lib/trace/parse-trace";
import { sourceFromFile } from "@/server/trace/files/file-source";
import { TRACES_DIR } from "../../helpers/traces";

const FILE = join(
  TRACES_DIR,
  "claude_code_jsonl/d-kimuson__claude-code-viewer/mock-global-claude-dir/projects/sample-project/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl",
);

async function loadSession() {
  const parsed = await parseTrace(await sourceFromFile(FILE));
  const session = parsed.sessions.reduce((a, b) => (b.messages.length > a.messages.length ? b : a));
  const analyzer = createAnalyzer();
  const { index } = analyzer.analyze(session);
  return { session, index, tokenizer: analyzer.tokenizerFor(session) };
}

test("simulating tool-prune on a real Claude Code trace lowers mean input tokens and records cache breaks", async () => {
  const { session, index, tokenizer } = await loadSession();
  const window = Math.floor(index.prefixTokens[session.messages.length]! / 2);
  const result = await rolloutSession(session, findPolicy("tool-prune")!, { window, tokenizer, cacheTtlMs: Number.POSITIVE_INFINITY });
  assert.ok(result.calls.length > 20, `${result.calls.length} calls`);
  assert.ok(result.compactions.length >= 1, "the trigger fired at least once");
  assert.ok(result.meanInput.with < result.meanInput.without, JSON.stringify(result.meanInput));
  assert.ok(result.reductionPct > 0);
  for (const c of result.calls) {
    assert.equal(c.without.input, index.prefixTokens[c.message], "the baseline is the recorded prefix");
    assert.equal(c.with.cached + c.with.write, c.with.input);
    assert.ok(c.with.input <= c.without.input);
  }
  for (const event of result.compactions) {
    const call = result.calls[event.call]!;
    assert.equal(call.compacted, true);
    assert.equal(call.with.cached, 0, "a commit empties the cached prefix");
    assert.equal(call.with.write, call.with.input, "and the whole compacted prompt is written");
    assert.ok(event.tokensAfter < event.tokensBefore);
    assert.ok(event.cacheBreakTokens > 0 && event.cacheBreakUsd > 0);
  }
  // Later calls continue from the compacted context: prompt = compacted prefix + new messages.
  const first = result.compactions[0]!;
  const next = result.calls[first.call + 1];
  if (next && !next.compacted) {
    assert.equal(
      next.with.input - result.calls[first.call]!.with.input,
      index.prefixTokens[next.message]! - index.prefixTokens[result.calls[first.call]!.message]!,
    );
    assert.equal(next.with.cached, result.calls[first.call]!.with.input, "the compacted prefix is cached again on the next call");
  }
});

test("the none policy changes nothing", async () => {
  const { session, index, tokenizer } = await loadSession();
  const result = await rolloutSession(session, findPolicy("none")!, { window: 1_000, tokenizer });
  assert.equal(result.compactions.length, 0);
  assert.deepEqual(
    result.calls.map((c) => c.with),
    result.calls.map((c) => c.without),
  );
  assert.equal(result.reductionPct, 0);
  assert.ok(index.prefixTokens.length > 1);
});

test("provider usage in a Claude Code trace becomes whole-prompt usage rows", async () => {
  const { session } = await loadSession();
  const { rows, skipped } = sessionUsageRows(session, { account: "olga@example.com", surface: "context-gc" });
  const withUsage = session.messages.filter((m) => m.usage?.inputTokens !== undefined);
  assert.equal(rows.length + skipped, withUsage.length);
  assert.ok(rows.length > 0);
  for (const [i, row] of rows.entries()) {
    const u = withUsage[i]!.usage!;
    assert.equal(row.inputTokens, u.inputTokens! + (u.cachedInputTokens ?? 0) + (u.cacheWriteTokens ?? 0));
    assert.ok(row.cachedInputTokens + row.cacheWriteTokens <= row.inputTokens);
    assert.equal(row.account, "olga@example.com");
  }
});

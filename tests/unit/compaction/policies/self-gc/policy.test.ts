import assert from "node:assert/strict";
import { test } from "node:test";
import type { LlmClient, LlmRequest } from "../../../../../lib/llm/types";
import { findPolicy } from "../../../../../lib/compaction/policies/registry";
import { runPolicy } from "../../../../../lib/compaction/policies/run-policy";
import { selfGcPolicy } from "../../../../../lib/compaction/policies/self-gc/policy";
import type { PolicyResult } from "../../../../../lib/compaction/policies/types";
import { countViewMessage } from "../../../../../lib/compaction/projection/materialize";
import { sha256Hex } from "../../../../../lib/util/sha256";
import { body, fixture, type Step } from "../../planner/fixtures";
import { allTraceCuts, traceTokenizer, type TraceCut } from "../../planner/trace-cuts";

const run = (c: TraceCut, params = {}) =>
  runPolicy(selfGcPolicy, {
    session: c.analyzed.session,
    index: c.analyzed.index,
    cut: c.cut,
    window: Math.ceil(c.analyzed.index.prefixTokens[c.cut]! / 0.9),
    tokenizer: traceTokenizer,
    params,
  });

/** The harness invariants of tests/unit/compaction/policies/invariants.test.ts, for self-gc alone. */
function checkInvariants(c: TraceCut, r: PolicyResult): void {
  const { session } = c.analyzed;
  const byOrigin = new Map(r.view.filter((v) => typeof v.origin === "number").map((v) => [v.origin as number, v]));
  for (const m of c.input.protect.messages) {
    const viewed = byOrigin.get(m);
    assert.ok(viewed, `${c.where}: protected message ${m} missing`);
    assert.deepEqual(
      viewed.parts.map(({ origin: _o, objectId: _i, action: _a, ...p }) => p),
      session.messages[m]!.parts,
      `${c.where}: protected ${m} changed`,
    );
  }
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const message of r.view) {
    for (const part of message.parts) {
      if (part.type === "tool_call") calls.add(part.id);
      if (part.type === "tool_result" && !part.orphan) {
        assert.ok(calls.has(part.callId), `${c.where}: result ${part.callId} without its call`);
        results.add(part.callId);
      }
    }
  }
  const answered = new Set<string>();
  session.messages.slice(0, r.cut).forEach((m) => m.parts.forEach((p) => p.type === "tool_result" && answered.add(p.callId)));
  for (const id of calls) if (answered.has(id)) assert.ok(results.has(id), `${c.where}: call ${id} lost its result`);
  for (const s of r.sidecars) assert.equal(sha256Hex(s.payload), s.sha256);
  assert.equal(
    r.tokensAfter,
    r.view.reduce((sum, m) => sum + countViewMessage(m, traceTokenizer), 0),
    `${c.where}: accounting`,
  );
  assert.ok(r.tokensAfter <= r.tokensBefore * 1.02 + 200, `${c.where}: the view grew`);
}

test("self-gc is registered and holds the harness invariants on every real trace at every replay cut", async () => {
  assert.equal(findPolicy("self-gc"), selfGcPolicy);
  const statuses: Record<string, number> = {};
  for (const c of await allTraceCuts()) {
    const r = await run(c);
    checkInvariants(c, r);
    const commit = (r.details?.commit ?? {}) as { status?: string };
    statuses[commit.status ?? "?"] = (statuses[commit.status ?? "?"] ?? 0) + 1;
    if (commit.status !== "committed") assert.equal(r.tokensAfter, r.tokensBefore, `${c.where}: an uncommitted plan changed the view`);
    else assert.ok(r.pruneRate >= 0.3, `${c.where}: committed below the threshold`);
  }
  assert.ok((statuses.committed ?? 0) > 10, JSON.stringify(statuses));
});

test("on the long Claude Code sessions self-gc commits between the compression threshold and a little past its 60% aim", async (t) => {
  const cuts = (await allTraceCuts()).filter((c) => c.path.includes("claude_code_jsonl") && c.input.index.prefixTokens[c.cut]! > 50_000);
  const rates: number[] = [];
  for (const c of cuts) {
    const r = await run(c);
    const rehearsal = r.details?.rehearsal as { pruneRate: number };
    rates.push(rehearsal.pruneRate);
    t.diagnostic(`${c.where}: rehearsed ${(rehearsal.pruneRate * 100).toFixed(1)}%, committed ${(r.pruneRate * 100).toFixed(1)}%`);
  }
  const mean = rates.reduce((a, b) => a + b, 0) / rates.length;
  t.diagnostic(`mean rehearsed prune over ${rates.length} cuts: ${(mean * 100).toFixed(1)}%`);
  assert.ok(mean > 0.3 && mean < 0.7, `mean rehearsed prune ${mean}`);
});

test("self-gc is deterministic on the longest session", async () => {
  const cuts = (await allTraceCuts()).filter((c) => c.path.includes("258c7280") && !c.path.includes("subagents"));
  for (const c of cuts) assert.deepEqual(await run(c), await run(c), c.where);
});

test("long single-task runs: the request and newest steps are protected, the middle of the run is governed", async () => {
  const cut = (await allTraceCuts()).find((c) => c.path.includes("astropy__astropy-12907") && c.input.index.prefixTokens[c.cut]! > 15_000)!;
  const r = await run(cut);
  assert.equal((r.details?.commit as { status: string }).status, "committed");
  const request = cut.input.protect.latestRequest;
  assert.ok(cut.input.protect.messages.has(request) && cut.input.protect.messages.size < 10);
  assert.ok(r.actions.length > 0 && r.actions.every((a) => !a.target.startsWith("conversation:")));
});

const steps: Step[] = [
  ["system", "You are an agent."],
  ["user", "Research the vendors."],
  ["call", "WebFetch", { url: "https://a.example.com" }, body("page a", 300)],
  ["assistant", "Done."],
  ["user", "Check the build first."],
  ...["make", "make test", "git status", "git log -1", "ls dist"].map((command): Step => ["call", "Bash", { command }, "ok"]),
  ["assistant", "Build is fine."],
  ["user", "Now compare prices."],
  ["assistant", "Comparing."],
];
const exec = (params: Record<string, string | number | boolean>, llm?: LlmClient) => {
  const { ctx } = fixture(steps);
  return runPolicy(selfGcPolicy, {
    session: ctx.session,
    index: ctx.index,
    cut: ctx.cut,
    window: ctx.window,
    tokenizer: ctx.tokenizer,
    params,
    ...(llm ? { llm } : {}),
  });
};

function fakeClient(answer: string, seen: LlmRequest[] = []): LlmClient {
  return { id: "fake:model", complete: async (request) => (seen.push(request), { text: answer, model: "fake-model", inputTokens: 1000, outputTokens: 50 }) };
}

/** Answers in order (the last answer repeats), recording each request. */
function scriptedClient(answers: string[], seen: LlmRequest[]): LlmClient {
  return {
    id: "fake:model",
    complete: async (request) => (
      seen.push(request),
      { text: answers[Math.min(seen.length - 1, answers.length - 1)]!, model: "fake-model", inputTokens: 1000, outputTokens: 50, cachedInputTokens: 400 }
    ),
  };
}

test("planner=llm without a model client fails with a clear error", async () => {
  await assert.rejects(exec({ planner: "llm" }), {
    name: "PlannerUnavailableError",
    message: /planner=llm needs a model client: configure TRACEFOLD_LLM_PROVIDER/,
  });
  await assert.rejects(exec({ planner: "gpt" }), /planner must be "rule-based" or "llm"/);
});

test("an LLM plan goes through parse, rehearsal and cache-aware commit like any other", async () => {
  const seen: LlmRequest[] = [];
  const xml =
    '```xml\n<above_conversation_summary>Research then compare.</above_conversation_summary>\n<gc_plan><fold kind="function" reason="stable_body: page">web_fetch:1</fold><prune kind="conversation" reason="cut_turn">user:3</prune></gc_plan>\n```';
  const r = await exec({ planner: "llm" }, fakeClient(xml, seen));
  assert.equal(seen[0]?.purpose, "planner");
  assert.match(seen[0]!.messages[1]!.content, /<turn id="function:web_fetch:1"/);
  const details = r.details as {
    planner: { id: string; model: string };
    rehearsal: { dropped: { target: string }[] };
    commit: { status: string; benefit: { gcLoss: number } };
  };
  assert.deepEqual(details.planner, { id: "llm:fake:model", model: "fake-model", usage: { inputTokens: 1000, outputTokens: 50 } });
  assert.deepEqual(
    details.rehearsal.dropped.map((d) => d.target),
    ["conversation:user:3"],
  );
  assert.equal(details.commit.status, "committed");
  assert.equal(details.commit.benefit.gcLoss, 0.01, "the planner call is charged as L_GC");
  assert.deepEqual(
    r.rejected.map((x) => x.target),
    ["conversation:user:3"],
  );
  assert.equal(r.sidecars.length, 1);
});

test("an LLM answer that breaks the schema is rejected with its errors and leaves the prefix unchanged", async () => {
  const r = await exec({ planner: "llm" }, fakeClient("Sure! I would fold read:1."));
  const details = r.details as { parseErrors: { code: string }[]; commit: { status: string } };
  assert.deepEqual(
    details.parseErrors.map((e) => e.code),
    ["text_outside_blocks", "missing_summary", "missing_plan"],
  );
  assert.equal(details.commit.status, "rejected");
  assert.equal(r.tokensAfter, r.tokensBefore);
  assert.equal(r.actions.length, 0);
});

test("an unparseable plan is shown back to the model once with its located errors; the repaired plan commits", async () => {
  const seen: LlmRequest[] = [];
  const good =
    '<above_conversation_summary>Research then compare.</above_conversation_summary>\n<gc_plan><fold kind="function" reason="stable_body: page">web_fetch:1</fold><prune kind="conversation" reason="cut_turn">user:3</prune></gc_plan>';
  const r = await exec({ planner: "llm" }, scriptedClient(["Sure! I would fold read:1.", good], seen));
  assert.equal(seen.length, 2);
  const repair = seen[1]!.messages;
  assert.deepEqual(
    repair.slice(-2).map((m) => m.role),
    ["assistant", "user"],
  );
  assert.match(repair.at(-1)!.content, /^Your plan was rejected by the parser:\n- 1:1 text outside the two blocks/);
  const details = r.details as { planner: { usage: unknown; attempts: number }; commit: { status: string } };
  assert.equal(details.commit.status, "committed");
  assert.deepEqual(details.planner.usage, { inputTokens: 2000, outputTokens: 100, cachedInputTokens: 800 }, "both calls are charged");
  assert.equal(details.planner.attempts, 2);
});

test("with a priced endpoint the planner's measured cost, summed over its attempts, is L_GC instead of plannerCallCost", async () => {
  const seen: LlmRequest[] = [];
  const xml =
    '<above_conversation_summary>Research then compare.</above_conversation_summary>\n<gc_plan><fold kind="function" reason="stable_body: page">web_fetch:1</fold><prune kind="conversation" reason="cut_turn">user:3</prune></gc_plan>';
  const priced: LlmClient = {
    id: "fake:model",
    complete: async (request) => (
      seen.push(request),
      { text: seen.length === 1 ? "no plan" : xml, model: "fake-model", inputTokens: 1000, outputTokens: 50, costUsd: 0.0035 }
    ),
  };
  const r = await exec({ planner: "llm" }, priced);
  const details = r.details as { planner: { usage: { costUsd: number } }; commit: { benefit: { gcLoss: number } } };
  assert.equal(details.planner.usage.costUsd, 0.007);
  assert.equal(details.commit.benefit.gcLoss, 0.007, "measured, not the 0.01 default");
});

test("a plan still unparseable after the one repair is rejected, with no third call", async () => {
  const seen: LlmRequest[] = [];
  const r = await exec({ planner: "llm" }, scriptedClient(["no plan", "still no plan", "<never asked/>"], seen));
  assert.equal(seen.length, 2);
  assert.equal((r.details as { commit: { status: string } }).commit.status, "rejected");
});

test("details carry the planner XML, the rehearsal log and the commit decision with its numbers", async () => {
  const r = await exec({});
  const details = r.details as Record<string, unknown>;
  assert.match(details.xml as string, /^<above_conversation_summary>/);
  assert.deepEqual(details.parseErrors, []);
  assert.deepEqual(Object.keys(details.rehearsal as object), ["status", "tokensBefore", "tokensAfter", "pruneRate", "threshold", "accepted", "dropped"]);
  assert.match((details.commit as { reason: string }).reason, /benefit \$/);
  assert.ok(r.log.some((l) => l.startsWith("rehearsal:")) && r.log.some((l) => l.startsWith("commit ")));
  const strict = await exec({ compressionThreshold: 0.99 });
  assert.equal((strict.details as { commit: { status: string } }).commit.status, "pending");
  assert.equal(strict.tokensAfter, strict.tokensBefore);
});

import assert from "node:assert/strict";
import { test } from "node:test";
import { parsePlan } from "../../../../../lib/compaction/planner/parse-plan";
import { commitPlan, type CommitOptions } from "../../../../../lib/compaction/policies/self-gc/commit";
import { DEFAULT_CACHE_PRICES } from "../../../../../lib/compaction/policies/self-gc/commit-benefit";
import { rehearsePlan } from "../../../../../lib/compaction/policies/self-gc/rehearse";
import type { PolicyContext } from "../../../../../lib/compaction/policies/types";
import { materializeView } from "../../../../../lib/compaction/projection/materialize";
import type { ViewMessage } from "../../../../../lib/compaction/projection/types";
import type { Session } from "../../../../../lib/trace/model";
import { sha256Hex } from "../../../../../lib/util/sha256";
import { body, buildSession, fixture, fixtureFromSession, log, type Step } from "../../planner/fixtures";

const options: CommitOptions = {
  cacheAware: true,
  economics: { nFuture: 20, cacheHitRate: 0.9, prices: DEFAULT_CACHE_PRICES, gcCost: 0, minPruneRate: 0.3 },
};
const page = body("vendor page", 300);
const steps: Step[] = [
  ["system", "You are an agent."],
  ["user", "Research the vendors."],
  ["call", "WebFetch", { url: "https://a.example.com/pricing" }, page],
  ["call", "Bash", { command: "npm install" }, log(200)],
  ["call", "Bash", { command: "npm test" }, "Exit code 1\n1 failing", { isError: true }],
  ["call", "Bash", { command: "npm test" }, "12 passing"],
  ["assistant", "Done."],
  ["user", "Now compare prices."],
  ["assistant", "Comparing."],
];

function commit(actions: string, ctx: PolicyContext, opts = options) {
  const parsed = parsePlan(`<above_conversation_summary>s</above_conversation_summary><gc_plan>${actions}</gc_plan>`);
  assert.ok(parsed.plan, JSON.stringify(parsed.errors));
  const rehearsal = rehearsePlan(ctx, parsed.plan);
  return { rehearsal, outcome: commitPlan(ctx, rehearsal, opts) };
}

function view(ctx: PolicyContext, outcome: ReturnType<typeof commit>["outcome"]): ViewMessage[] {
  return materializeView(ctx.session.messages, ctx.cut, ctx.index, outcome.plan, ctx.protect, ctx.tokenizer).view;
}

const PLAN =
  '<fold kind="function" reason="stable_body">web_fetch:1</fold><mask kind="function" reason="repetitive_log">exec:1</mask><prune kind="function" reason="superseded_failure">exec:2</prune>';

test("fold: the exact payload goes to a content-addressed sidecar, a pointer stays, the reminder sits on the user turn", () => {
  const { ctx } = fixture(steps);
  const { outcome } = commit(PLAN, ctx);
  assert.equal(outcome.status, "committed", outcome.reason);
  const [sidecar] = outcome.sidecars;
  assert.equal(sidecar?.payload, page);
  assert.equal(sidecar?.sha256, sha256Hex(page));
  const v = view(ctx, outcome);
  const pointer = v.flatMap((m) => m.parts).find((p) => p.objectId === "function:web_fetch:1");
  assert.ok(pointer?.type === "tool_result" && pointer.content.startsWith(`<folded id="function:web_fetch:1" sidecar="sha256:${sidecar!.sha256}"`));
  const request = v.find((m) => m.origin === 1)!;
  assert.equal(request.role, "user");
  assert.ok(request.parts.some((p) => p.type === "text" && p.action === "fold" && p.text.startsWith("[fold] function:web_fetch:1 is in sidecar")));
});

test("mask keeps head and tail hints; prune removes the result together with its own call", () => {
  const { ctx } = fixture(steps);
  const v = view(ctx, commit(PLAN, ctx).outcome);
  const parts = v.flatMap((m) => m.parts);
  const masked = parts.find((p) => p.objectId === "function:exec:1");
  assert.ok(masked?.type === "tool_result" && masked.action === "mask");
  assert.ok(
    masked.content.startsWith("[0/200] Compiling module_0.ex ... ok") &&
      masked.content.includes("masked") &&
      masked.content.endsWith("[199/200] Compiling module_199.ex ... ok"),
  );
  assert.equal(
    parts.find((p) => p.objectId === "function:exec:2"),
    undefined,
  );
  assert.ok(!parts.some((p) => p.type === "tool_call" && p.id === "call_3"), "the failed attempt's call went with it");
  assert.ok(
    parts.some((p) => p.type === "tool_call" && p.id === "call_4"),
    "the successful rerun stays",
  );
});

test("prune pairs calls by position when a trace reuses call ids", () => {
  const { ctx, session } = fixture(steps);
  const reused = structuredClone(session) as Session;
  for (const m of reused.messages)
    for (const p of m.parts) {
      if (p.type === "tool_call" && p.id === "call_4") p.id = "call_3";
      if (p.type === "tool_result" && p.callId === "call_4") p.callId = "call_3";
    }
  const reusedCtx: PolicyContext = { ...ctx, session: reused };
  const v = view(reusedCtx, commit(PLAN, reusedCtx).outcome);
  const seq = v.flatMap((m) => m.parts).filter((p) => (p.type === "tool_call" && p.id === "call_3") || (p.type === "tool_result" && p.callId === "call_3"));
  assert.deepEqual(
    seq.map((p) => p.type),
    ["tool_call", "tool_result"],
  );
  assert.ok(seq[1]?.type === "tool_result" && seq[1].content === "12 passing");
});

test("a turn folded whole re-parents the surviving result of a call it held, and the view normalises", () => {
  // The export's call is made in turn 1, the user speaks (turn 2), then the result arrives.
  const session = buildSession([
    ["system", "You are an agent."],
    ["user", "Start the export and read the spec."],
    ["call", "Read", { file_path: "spec.txt" }, body("spec", 400)],
    ["assistant", "Starting the export."],
    ["assistant", "<call>"],
    ["user", "While it runs: what is 2+2?"],
    ["tool", "<result>"],
    ["assistant", "4, and the export finished."],
  ]);
  session.messages[5]!.parts = [{ type: "tool_call", id: "exp", name: "Bash", arguments: '{"command":"export --all"}' }];
  session.messages[7]!.parts = [{ type: "tool_result", callId: "exp", content: "export job_42 done" }];
  const { ctx } = fixtureFromSession(session);
  assert.equal(ctx.index.byId.get("function:exec:1")?.parentId, "conversation:user:2");
  const { outcome } = commit('<fold kind="conversation" reason="resolved_turn">user:1</fold>', ctx, { ...options, cacheAware: false });
  assert.equal(outcome.status, "committed", outcome.reason);
  assert.deepEqual(outcome.parentMap, { "function:exec:1": { from: "conversation:user:1", to: "conversation:user:2" } });
  assert.deepEqual(outcome.provider?.fixes, [], "the user's interjection moves after the result; nothing is lost");
});

test("a cut that is not a safe turn boundary keeps the plan pending and the prefix unchanged", () => {
  const { ctx } = fixture(steps, 5);
  const { rehearsal, outcome } = commit('<fold kind="function" reason="x">web_fetch:1</fold>', { ...ctx, protect: { messages: new Set(), latestRequest: 1 } });
  assert.equal(rehearsal.status, "accepted");
  assert.equal(outcome.status, "pending");
  assert.match(outcome.reason, /not a safe turn boundary/);
  assert.equal(outcome.plan.parts.size, 0);
});

test("cache-aware commit leaves an accepted plan pending when the cache break outweighs the savings", () => {
  const { ctx } = fixture(steps);
  const lazy = commit(PLAN, ctx, { ...options, economics: { ...options.economics, nFuture: 0 } }).outcome;
  assert.equal(lazy.status, "pending");
  assert.ok(lazy.benefit && lazy.benefit.benefit < 0);
  assert.equal(lazy.actions.length, 0);
  const eager = commit(PLAN, ctx, { ...options, cacheAware: false, economics: { ...options.economics, nFuture: 0 } }).outcome;
  assert.equal(eager.status, "committed");
  assert.equal(eager.benefit, undefined);
});

test("a folded preamble result (no user turn of its own) gets its recovery reminder on the next user request", () => {
  const { ctx } = fixture([
    ["system", "You are an agent."],
    ["call", "Read", { file_path: "MEMORY.md" }, body("memory", 300)],
    ["user", "Continue the migration."],
    ["assistant", "On it."],
    ["user", "Status?"],
  ]);
  assert.equal(ctx.index.byId.get("function:read:1")?.parentId, undefined);
  const { outcome } = commit('<fold kind="function" reason="stable_body">read:1</fold>', ctx, { ...options, cacheAware: false });
  const request = view(ctx, outcome).find((m) => m.origin === 3)!;
  assert.ok(request.parts.some((p) => p.type === "text" && p.text.startsWith("[fold] function:read:1 is in sidecar")));
});

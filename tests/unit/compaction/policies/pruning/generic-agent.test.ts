import assert from "node:assert/strict";
import { test } from "node:test";
import { genericAgentPolicy } from "../../../../../lib/compaction/policies/pruning/generic-agent";
import type { PolicyResult } from "../../../../../lib/compaction/policies/types";
import type { Part, Role } from "../../../../../lib/trace/model";
import { analyze, assertValidPairs, call, plainParts, prose, reasoning, result, run, session, text, tokenizer, viewByOrigin, type Analyzed } from "./fixtures";

/**
 * A single-request GA-style run: message 1 is the request, steps i = 1..14 are an assistant message
 * (2,000 chars of reasoning + a code_run call) at 2i and its result at 2i + 1, message 30 the final
 * answer. Entries (non-system messages) are messages 1..30; the harness protects 1 and 28..30.
 */
function gaRun(output: (i: number) => string = (i) => `File src/mod${i}.py\n${prose(2_000, `o${i}`)}`): Analyzed {
  const steps = Array.from({ length: 14 }, (_, k) => k + 1).flatMap((i): [Role, Part[]][] => [
    ["assistant", [reasoning(prose(2_000, `r${i}`)), call(`c${i}`, "code_run", `{"script":"python step${i}.py"}`)]],
    ["tool", [result(`c${i}`, output(i))]],
  ]);
  return analyze(session([["system", [text("You are GA.")]], ["user", [text("Port the module to Rust")]], ...steps, ["assistant", [text("Done.")]]]));
}

const a = gaRun();
const changed = (r: PolicyResult, m: number) => JSON.stringify(plainParts(viewByOrigin(r).get(m)!)) !== JSON.stringify(a.session.messages[m]!.parts);
const details = (r: PolicyResult) => r.details as { budgetChars: number; charsAfter: number; charsAfterStage2: number; evictedMessages: number[] };

test("stage 2 compresses only outside the 10 newest messages of its last pass; no eviction under budget", async () => {
  const r = await run(genericAgentPolicy, a, { window: 1_000_000 });
  // 15 assistant messages → last pass at call 15 over entries 1..29, the 19 oldest compressed (messages 1..19).
  for (let m = 2; m <= 19; m++) assert.equal(changed(r, m), true, `message ${m} compressed`);
  for (let m = 20; m <= 30; m++) assert.equal(changed(r, m), false, `message ${m} exempt`);
  assert.ok(r.actions.every((x) => x.rule === "generic-agent/stage2-compress" && x.action === "truncate"));
  assert.equal(r.summary, undefined, "no eviction, no anchor (anchorAlways off)");
  assert.deepEqual(details(r).evictedMessages, []);
});

test("stage 1 truncates a long tool output even inside the exempt newest messages", async () => {
  const big = gaRun((i) => (i === 12 ? "x".repeat(30_000) : prose(300, `o${i}`)));
  const r = await run(genericAgentPolicy, big, { window: 1_000_000 });
  const part = viewByOrigin(r).get(25)!.parts[0]!;
  assert.equal(part.type === "tool_result" && part.content.length, 10_000 + "\n...[20000 chars omitted]...\n".length);
  assert.deepEqual(r.actions.find((x) => x.target === "function:exec:12")?.rule, "generic-agent/stage1-truncate");
});

test("over budget: strict pass spares only the 4 newest, then FIFO eviction to below 60% of B", async () => {
  const r = await run(genericAgentPolicy, a, { window: 10_000 });
  const d = details(r);
  assert.equal(d.budgetChars, 30_000);
  assert.ok(d.charsAfterStage2 > d.budgetChars, "stage 3 had to run");
  assert.ok(d.charsAfter < 0.6 * d.budgetChars, `${d.charsAfter} < 60% of B`);
  assert.ok(d.charsAfter > 0.6 * d.budgetChars - 1_200, "and eviction stopped right after crossing it");
  const k = d.evictedMessages.length;
  assert.deepEqual(
    d.evictedMessages,
    Array.from({ length: k }, (_, i) => i + 2),
    "FIFO from the oldest unprotected message",
  );
  assert.equal(r.actions.find((x) => x.target === "message:26")?.rule, "generic-agent/stage3-compress-strict");
  assert.equal(changed(r, 27), false, "the 4 newest messages (27..30) are exempt from the strict pass");
  for (const m of [1, 28, 29, 30]) assert.equal(changed(r, m), false, `protected message ${m}`);
  assertValidPairs(r);
});

test("eviction keeps at least 9 messages and cleans up the result orphaned by it", async () => {
  const r = await run(genericAgentPolicy, a, { window: 100 });
  // 30 entries, 9 kept: the protected request and messages 23..30; 2..22 evicted.
  assert.deepEqual(
    details(r).evictedMessages,
    Array.from({ length: 21 }, (_, i) => i + 2),
  );
  const orphan = r.actions.find((x) => x.target === "function:exec:11")!;
  assert.equal(orphan.rule, "generic-agent/stage3-orphan-cleanup", "message 23 answered a call evicted with message 22");
  assert.equal(viewByOrigin(r).has(23), false, "the orphan's message is left empty and dropped");
  assert.equal(r.actions.filter((x) => x.rule === "harness/lineage-repair").length, 0, "the policy already left valid pairs");
  assertValidPairs(r);
});

test("the oldest kept message is never an assistant message: eviction keeps popping", async () => {
  const turns: [Role, Part[]][] = [
    ["user", [text(prose(9_000, "u1"))]],
    ["assistant", [text("noted one")]],
    ...[2, 3, 4].flatMap((i): [Role, Part[]][] => [
      ["user", [text(prose(1_000, `u${i}`))]],
      ["assistant", [text(`noted ${i}`)]],
    ]),
    ["user", [text("last")]],
    ["assistant", [text("ok")]],
  ];
  const r = await run(genericAgentPolicy, analyze(session([["system", [text("sys")]], ...turns])), { window: 3_000 });
  // Evicting the 9,000-char request is enough for the 60% target; its answer would head the history, so it goes too.
  assert.deepEqual(details(r).evictedMessages, [1, 2]);
  assert.equal(r.view.find((v) => typeof v.origin === "number" && v.role !== "system")?.role, "user");
});

test("stage 4: the working-memory anchor sits at the latest request with its turn lines, the turn and key_info", async () => {
  const lines = (anchor: string) => anchor.slice(anchor.indexOf("<history>\n") + 10, anchor.indexOf("\n</history>")).split("\n");
  const r = await run(genericAgentPolicy, a, { window: 10_000 });
  const at = r.view.findIndex((v) => v.origin === "summary");
  assert.equal(r.view[at + 1]!.origin, 1, "placed just before the latest request");
  const anchor = r.summary!;
  const all = lines(anchor);
  assert.equal(all.length, 16, "fewer than 20 turns: the request and all 15 assistant turns");
  assert.equal(all[0], "[USER] Port the module to Rust");
  assert.ok(all.every((line) => line.length <= 100 && /^\[(Agent|USER)\] /.test(line)));
  assert.equal(all.at(-1), "[Agent] Done.");
  assert.match(anchor, /\nCurrent turn: 15\n/);
  assert.match(anchor, /<key_info>\n- path: src\/mod14\.py\n/);
  const capped = await run(genericAgentPolicy, a, { window: 10_000, params: { anchorLines: 10 } });
  assert.deepEqual(lines(capped.summary!), all.slice(-10), "only the most recent lines are kept");
  assert.equal(genericAgentPolicy.params.find((p) => p.name === "anchorLines")?.default, 20);
});

test("fires on GA's own reading: C_H after stages 1-2 above alpha × window characters", () => {
  const ctx = { session: a.session, index: a.index, cut: a.session.messages.length, tokenizer, prefixTokens: a.index.prefixTokens.at(-1)!, summaryCap: 2_000 };
  const params = Object.fromEntries(genericAgentPolicy.params.map((p) => [p.name, p.default]));
  assert.equal(genericAgentPolicy.fires!({ ...ctx, window: 10_000 }, params), true);
  assert.equal(genericAgentPolicy.fires!({ ...ctx, window: 1_000_000 }, params), false);
});

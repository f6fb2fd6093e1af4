import assert from "node:assert/strict";
import { test } from "node:test";
import { buildJudgePacket, MIN_PACKET_CHARS } from "../../../../lib/evaluation/llm-judge";
import { body, fixture, type Step } from "../../compaction/planner/fixtures";
import { CUT, resultFor } from "./fixtures";

test("the packet has the four sections in order, and the prefix is the projected view with object ids", async () => {
  const { session, index, result } = await resultFor("tool-prune");
  const p = buildJudgePacket({ session, index, result });
  const order = ["=== PLAN", "=== RETAINED PREFIX", "=== CONTEXT_PRUNE_DIFF", "=== REAL FUTURE TURNS", "=== END ==="].map((t) => p.text.indexOf(t));
  assert.ok(
    order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1]!)),
    String(order),
  );
  assert.match(p.sections.prefix, /\[User · conversation:user:1\]/);
  assert.match(p.sections.prefix, /\[Tool result: Bash · function:exec:2\]/);
  assert.doesNotMatch(p.sections.prefix, /Plan Pro costs 12\.50/, "the pruned page is not in the retained prefix");
  assert.match(p.sections.plan, /- prune function:web_fetch:1: /);
});

test("impacted turns get context_prune_diff blocks with the removed content on '-' lines", async () => {
  const { session, index, result } = await resultFor("tool-prune");
  const p = buildJudgePacket({ session, index, result });
  assert.deepEqual(
    p.impacted.map((t) => t.turnId),
    ["conversation:user:1"],
  );
  assert.match(p.sections.diffs, /^<context_prune_diff turn="conversation:user:1" edits="\d+">/);
  assert.match(p.sections.diffs, /@@ function:web_fetch:1 · prune · not recoverable · by prune function:web_fetch:1/);
  assert.match(p.sections.diffs, /@@ call of function:web_fetch:1 · prune/);
  assert.match(p.sections.diffs, /^- Plan Pro costs 12\.50 per seat\.$/m);
  assert.match(p.sections.diffs, /\+ \(nothing: removed from the view\)/);
  assert.match(p.sections.diffs, /<\/context_prune_diff>$/);
});

test("a fold shows the pointer on '+' lines and says the payload is recoverable from its sidecar", async () => {
  const { session, index, result } = await resultFor("oldest-turn");
  const p = buildJudgePacket({ session, index, result });
  const sha = result.sidecars[0]!.sha256;
  assert.match(p.sections.diffs, new RegExp(`@@ conversation:user:1 · fold · recoverable from sidecar sha256:${sha.slice(0, 12)}`));
  assert.match(p.sections.diffs, /^\+ <folded id="conversation:user:1"/m);
  assert.match(p.sections.prefix, /\[User · conversation:user:1 · fold pointer\]/);
});

test("the packet is blind: no policy id and no rule id in the text", async () => {
  for (const id of ["tool-prune", "oldest-turn", "hybrid"]) {
    const { session, index, result } = await resultFor(id);
    const p = buildJudgePacket({ session, index, result });
    assert.equal(p.policy, id);
    assert.ok(!p.text.includes(id), `${id} leaks into its packet`);
    for (const a of result.actions) assert.ok(!p.text.includes(a.rule), `rule ${a.rule} leaks`);
  }
});

test("the future window is the current turn's continuation plus the next `futureRequests` requests", async () => {
  const { session, index, result } = await resultFor("tool-prune");
  const two = buildJudgePacket({ session, index, result });
  assert.equal(two.futureEnd, 18, "stops before the third request after the cut ('one more thing')");
  assert.match(two.sections.future, /\[User · message 11\]\nNow compare prices\./);
  assert.doesNotMatch(two.sections.future, /one more thing/);
  const one = buildJudgePacket({ session, index, result }, { futureRequests: 1 });
  assert.doesNotMatch(one.sections.future, /thanks, send it/);
  const explicit = buildJudgePacket({ session, index, result, futureEnd: CUT + 1 });
  assert.equal(explicit.futureEnd, CUT + 1);
  assert.match(explicit.sections.future, /^\[Assistant · message 10\]\nBuild ok\.$/);
});

test("no edits: the plan says so and there are no diff blocks", async () => {
  const { session, index, result } = await resultFor("none");
  const p = buildJudgePacket({ session, index, result });
  assert.match(p.sections.plan, /no edits/);
  assert.equal(p.sections.diffs, "(none)");
  assert.deepEqual(p.impacted, []);
  assert.ok(!p.elided);
});

test("objectIds lists every id the packet shows, for culprit validation", async () => {
  const { session, index, result } = await resultFor("tool-prune");
  const p = buildJudgePacket({ session, index, result });
  assert.deepEqual(p.objectIds, ["conversation:user:1", "conversation:user:2", "function:exec:1", "function:exec:2", "function:web_fetch:1"]);
});

test("a long session stays within maxChars, with elision markers, and keeps the latest context and the first future step", async () => {
  const steps: Step[] = [["system", "You are an agent."]];
  for (let t = 1; t <= 40; t++) {
    steps.push(["user", `Task ${t}: fetch page ${t}.`]);
    steps.push(["call", "WebFetch", { url: `https://e.example.com/${t}` }, body(`page ${t}`, 120)]);
    steps.push(["assistant", `Fetched page ${t}.`]);
  }
  steps.push(["user", "Summarise page 3 exactly."], ["assistant", "Quoting page 3."], ["user", "ok"], ["assistant", "Done."]);
  const cut = fixture(steps).session.messages.findIndex((m) => m.parts.some((p) => p.type === "text" && p.text === "Quoting page 3."));
  const { session, index, result } = await resultFor("tool-prune", steps, cut, 4_000);
  for (const maxChars of [MIN_PACKET_CHARS, 12_000, 30_000]) {
    const p = buildJudgePacket({ session, index, result }, { maxChars });
    assert.ok(p.text.length <= maxChars, `${p.text.length} > ${maxChars}`);
    assert.ok(p.elided);
    assert.match(p.text, /\[… \d+ (chars|messages|impacted turns|edits|future messages) elided/);
    assert.match(p.sections.prefix, /Summarise page 3 exactly\./, "the protected latest request survives");
    assert.match(p.sections.future, /Quoting page 3\./);
  }
});

test("bad inputs: a budget under the minimum and a result from another session are refused", async () => {
  const { session, index, result } = await resultFor("tool-prune");
  assert.throws(() => buildJudgePacket({ session, index, result }, { maxChars: 1_000 }), RangeError);
  assert.throws(() => buildJudgePacket({ session: { ...session, id: "other" }, index, result }), RangeError);
});

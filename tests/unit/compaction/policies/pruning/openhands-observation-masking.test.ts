import assert from "node:assert/strict";
import { test } from "node:test";
import { maskableObservations, openhandsObservationMaskingPolicy } from "../../../../../lib/compaction/policies/pruning/openhands-observation-masking";
import { analyze, assertValidPairs, call, plainParts, prose, result, run, session, step, text, tokenizer, viewByOrigin } from "./fixtures";

test("events: each call and each result is one event, any other message one", () => {
  const s = session([
    ["system", [text("sys")]], // event 0
    ["user", [text("go")]], // 1
    ["assistant", [text("two at once"), call("a", "Bash", "{}"), call("b", "Read", "{}")]], // 2, 3
    ["tool", [result("a", "A"), result("b", "B")]], // 4, 5
    ["assistant", [call("c", "Bash", "{}")]], // 6
    ["tool", [result("c", "C")]], // 7
    ["assistant", [text("done")]], // 8
  ]);
  // 9 events; window 4 masks observations with event < 5.
  assert.deepEqual(maskableObservations(s.messages, 7, 4), [{ message: 3, part: 0 }]);
  assert.deepEqual(maskableObservations(s.messages, 7, 3), [
    { message: 3, part: 0 },
    { message: 3, part: 1 },
  ]);
  assert.deepEqual(maskableObservations(s.messages, 7, 100), []);
});

test("defaults replay the OpenHands config: attention_window 100, <MASKED>", () => {
  assert.deepEqual(
    openhandsObservationMaskingPolicy.params.map((p) => [p.name, p.default]),
    [
      ["attentionWindow", 100],
      ["placeholder", "<MASKED>"],
    ],
  );
});

test("masks observations outside the attention window and keeps those inside", async () => {
  const steps = [1, 2, 3, 4, 5].flatMap((i) => step(`c${i}`, "Bash", prose(800, `o${i}`)));
  const a = analyze(
    session([["user", [text("Run the checks")]], ...steps, ["assistant", [text("Checked.")]], ["user", [text("ok")]], ["assistant", [text("bye")]]]),
  );
  // 14 events; window 6 → observations with event < 8 (results of c1..c3 at events 2, 4, 6).
  const r = await run(openhandsObservationMaskingPolicy, a, { window: 1_000_000, params: { attentionWindow: 6 } });
  assert.deepEqual(
    r.actions.map((x) => [x.target, x.rule]),
    [1, 2, 3].map((i) => [`function:exec:${i}`, "openhands-observation-masking/outside-attention-window"]),
  );
  const view = viewByOrigin(r);
  for (const m of [2, 4, 6])
    assert.deepEqual(
      view.get(m)!.parts.map((p) => (p.type === "tool_result" ? p.content : "")),
      ["<MASKED>"],
    );
  for (const m of [8, 10]) assert.deepEqual(plainParts(view.get(m)!), a.session.messages[m]!.parts);
  assert.equal(
    openhandsObservationMaskingPolicy.fires!(
      { ...a, cut: a.session.messages.length, window: 1, tokenizer, prefixTokens: 0, summaryCap: 0 },
      { attentionWindow: 6, placeholder: "<MASKED>" },
    ),
    true,
  );
  assertValidPairs(r);
});

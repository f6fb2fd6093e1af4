import assert from "node:assert/strict";
import { test } from "node:test";
import { oldestTurnPolicy } from "../../../../../lib/compaction/policies/pruning/oldest-turn";
import { sha256Hex } from "../../../../../lib/util/sha256";
import { analyze, assertValidPairs, plainParts, prose, run, session, step, text, viewByOrigin } from "./fixtures";

const threeTurns = analyze(
  session([
    ["system", [text("You are an agent.")]],
    ["user", [text("Turn one: read src/a.ts")]],
    ...step("c1", "Read", prose(4_000, "a"), '{"file_path":"src/a.ts"}'),
    ["assistant", [text("Read a.")]],
    ["user", [text("Turn two: read src/b.ts")]],
    ...step("c2", "Read", prose(4_000, "b"), '{"file_path":"src/b.ts"}'),
    ["assistant", [text("Read b.")]],
    ["user", [text("Turn three: compare them")]],
    ["assistant", [text("They differ.")]],
  ]),
);
const prefix = threeTurns.index.prefixTokens.at(-1)!;
const turn1 = threeTurns.index.byId.get("conversation:user:1")!;

test("folds the oldest turn first and stops once the view fits the target", async () => {
  // Target sits between "turn one folded" and "nothing folded".
  const window = Math.ceil((prefix - turn1.tokens / 2) / 0.3);
  const r = await run(oldestTurnPolicy, threeTurns, { window });
  assert.deepEqual(
    r.actions.map((a) => [a.target, a.action, a.rule]),
    [["conversation:user:1", "fold", "oldest-turn/fold-oldest"]],
  );
  assert.ok(r.tokensAfter <= 0.3 * window);
});

test("keeps folding chronologically under a tighter target, never the latest turn", async () => {
  const r = await run(oldestTurnPolicy, threeTurns, { window: 100 });
  assert.deepEqual(
    r.actions.map((a) => a.target),
    ["conversation:user:1", "conversation:user:2"],
  );
  const view = viewByOrigin(r);
  for (const m of [9, 10]) assert.deepEqual(plainParts(view.get(m)!), threeTurns.session.messages[m]!.parts, `latest-turn message ${m}`);
  for (const m of [2, 3, 4, 6, 7, 8]) assert.equal(view.has(m), false, `folded span message ${m} left the view`);
  assertValidPairs(r);
});

test("the sidecar restores the folded span byte for byte and the pointer names it", async () => {
  const r = await run(oldestTurnPolicy, threeTurns, { window: 100 });
  const sidecar = r.sidecars.find((s) => s.target === "conversation:user:1")!;
  assert.equal(sha256Hex(sidecar.payload), sidecar.sha256);
  const original = threeTurns.session.messages.slice(1, 5).map((m) => ({ role: m.role, parts: m.parts }));
  assert.deepEqual(JSON.parse(sidecar.payload), original);
  const pointer = viewByOrigin(r).get(1)!.parts[0]!;
  assert.equal(pointer.type, "text");
  assert.match(pointer.type === "text" ? pointer.text : "", new RegExp(`sidecar="sha256:${sidecar.sha256}"`));
});

test("a turn too small to pay for its pointer is skipped, not folded", async () => {
  const a = analyze(
    session([
      ["user", [text("hi")]],
      ["assistant", [text("hello")]],
      ["user", [text("Read src/a.ts")]],
      ...step("c1", "Read", prose(4_000)),
      ["user", [text("thanks")]],
      ["assistant", [text("ok")]],
    ]),
  );
  const r = await run(oldestTurnPolicy, a, { window: 100 });
  assert.deepEqual(
    r.actions.map((x) => x.target),
    ["conversation:user:2"],
  );
  assert.ok(r.tokensAfter < r.tokensBefore);
});

test("a single-request long run falls back to folding its oldest tool results, and logs it", async () => {
  const steps = [1, 2, 3, 4, 5, 6].flatMap((i) => step(`c${i}`, "Bash", prose(2_000, `o${i}`)));
  const a = analyze(session([["system", [text("sys")]], ["user", [text("Fix the bug in src/app.ts")]], ...steps, ["assistant", [text("Done.")]]]));
  const r = await run(oldestTurnPolicy, a, { window: 100 });
  assert.ok(
    r.log.some((l) => l.includes("long run")),
    r.log.join("\n"),
  );
  assert.deepEqual(
    r.actions.map((x) => [x.target, x.rule]),
    [1, 2, 3, 4, 5].map((i) => [`function:exec:${i}`, "oldest-turn/fold-oldest-function"]),
    "oldest first; the newest step sits in the protected tail",
  );
  assert.equal(r.sidecars.length, 5);
  assertValidPairs(r);
});

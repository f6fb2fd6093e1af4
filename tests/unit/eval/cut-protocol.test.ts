import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DEFAULT_SHARES, replayCuts, windowForCut } from "../../../lib/eval/cut-protocol";
import { safeCutPoints } from "../../../lib/policies/cut-points";
import { loadAllTraces } from "../../helpers/load-traces";
import { analyze, session, step, text } from "./fixtures";

describe("replayCuts on every real trace", () => {
  test("native cuts land at the last safe cut before the compaction; shares are first-reaching and monotone; every cut has a later assistant step", async () => {
    const traces = await loadAllTraces();
    let native = 0;
    let cuts = 0;
    for (const { entry, sessions } of traces) {
      for (const { session: s, index } of sessions) {
        const where = `${entry.path}#${s.id}`;
        const replay = replayCuts(s, index);
        const safe = safeCutPoints(s);
        const total = index.prefixTokens.at(-1)!;
        assert.deepEqual(replay.map((c) => c.cut), [...new Set(replay.map((c) => c.cut))].sort((a, b) => a - b), `${where}: cuts ascending, deduplicated`);
        for (const c of replay) {
          cuts++;
          assert.ok(safe.includes(c.cut), `${where}: cut ${c.cut} is a safe cut`);
          assert.equal(c.prefixTokens, index.prefixTokens[c.cut], `${where}: prefix tokens`);
          assert.ok(s.messages.slice(c.cut).some((m) => m.role === "assistant"), `${where}: cut ${c.cut} has a later assistant step`);
          assert.equal(c.reason, c.reasons[0]);
        }
        for (const compaction of s.compactions) {
          const expected = safe.filter((k) => k <= compaction.beforeMessage).at(-1);
          if (expected === undefined || !s.messages.slice(expected).some((m) => m.role === "assistant")) continue;
          const found = replay.find((c) => c.reasons.includes("native") && c.cut === expected);
          assert.ok(found, `${where}: native cut for the compaction before message ${compaction.beforeMessage}`);
          assert.ok(found.cut <= compaction.beforeMessage, `${where}: native cut ${found.cut} lands before the compaction`);
          native++;
        }
        const shareCuts = DEFAULT_SHARES.map((share) => replay.find((c) => c.reasons.includes(`share-${Math.round(share * 100)}`)));
        let previous = -1;
        DEFAULT_SHARES.forEach((share, i) => {
          const c = shareCuts[i];
          if (!c) return;
          assert.equal(c.cut, safe.find((k) => index.prefixTokens[k]! >= share * total), `${where}: share-${share * 100} is the first safe cut reaching it`);
          assert.ok(c.cut >= previous, `${where}: share cuts monotone`);
          assert.ok(c.share >= share, `${where}: share ${c.share} reaches ${share}`);
          previous = c.cut;
        });
      }
    }
    assert.ok(native >= 2, `native cuts found: ${native}`);
    assert.ok(cuts > 300, `replay cuts: ${cuts}`);
  });
});

describe("replayCuts edge cases", () => {
  const s = session(
    [
      ["user", [text("Please look into it")]],
      ...step("c1", "Read", { path: "a.txt" }, "x".repeat(400)),
      ...step("c2", "Read", { path: "b.txt" }, "y".repeat(400)),
      ["assistant", [text("Half way there.")]],
      ["user", [text("Go on")]],
      ...step("c3", "Read", { path: "c.txt" }, "z".repeat(400)),
      ["assistant", [text("Done.")]],
    ],
    { compactions: [{ kind: "claude_code_compact_boundary", beforeMessage: 6 }] },
  );
  const a = analyze(s);

  test("a native cut and a share cut on the same message merge, native first", () => {
    const share = (a.index.prefixTokens[5]! - 0.5) / a.index.prefixTokens.at(-1)!;
    const replay = replayCuts(a.session, a.index, { shares: [share] });
    assert.deepEqual(replay.map((c) => [c.cut, c.reasons]), [[5, ["native", `share-${Math.round(share * 100)}`]]]);
    assert.equal(replay[0]!.reason, "native");
  });

  test("includeNative false drops native cuts; shares order does not matter", () => {
    const withNative = replayCuts(a.session, a.index, { shares: [0.9, 0.5] });
    const without = replayCuts(a.session, a.index, { shares: [0.5, 0.9], includeNative: false });
    assert.ok(withNative.some((c) => c.reasons.includes("native")));
    assert.ok(!without.some((c) => c.reasons.includes("native")));
    assert.deepEqual(without.map((c) => c.reasons), [["share-50"], ["share-90"]].filter((_, i) => without[i]));
  });

  test("a compaction before any safe cut, or at the very end with no assistant after, yields no cut", () => {
    const tail = session([["user", [text("hi")]], ["assistant", [text("hello")]], ["user", [text("bye")]]], {
      compactions: [{ kind: "other", beforeMessage: 0 }, { kind: "other", beforeMessage: 3 }],
    });
    const t = analyze(tail);
    assert.deepEqual(replayCuts(t.session, t.index, { shares: [] }).map((c) => c.cut), [1]);
  });

  test("windowForCut puts the prefix at the trigger level", () => {
    assert.equal(windowForCut(900), 1000);
    assert.equal(windowForCut(500, 0.5), 1000);
    assert.ok(901 >= 0.9 * windowForCut(901), "the budget trigger holds exactly at the cut");
    assert.equal(windowForCut(0), 1);
  });
});

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createHash } from "node:crypto";
import { CutLevelsSchema, DEFAULT_CUT_LEVELS, DENSE_CUT_LEVELS, parseCutLevelsText } from "../../../lib/evaluation/cuts/cut-levels";
import { DEFAULT_SHARES, replayCuts, windowForCut } from "../../../lib/evaluation/cuts/cut-protocol";
import { safeCutPoints } from "../../../lib/compaction/policies/cut-points";
import { loadAllTraces, loadEveryTrace } from "../../helpers/load-traces";
import { analyze, session, step, text } from "./fixtures";

describe("replayCuts on every real trace", () => {
  test("native cuts land at the last safe cut before the compaction; shares are first-reaching and monotone; every cut has a later assistant step", async () => {
    const traces = await loadEveryTrace();
    let native = 0;
    let cuts = 0;
    for (const { entry, sessions } of traces) {
      for (const { session: s, index } of sessions) {
        const where = `${entry.path}#${s.id}`;
        const replay = replayCuts(s, index);
        const safe = safeCutPoints(s);
        const total = index.prefixTokens.at(-1)!;
        assert.deepEqual(
          replay.map((c) => c.cut),
          [...new Set(replay.map((c) => c.cut))].sort((a, b) => a - b),
          `${where}: cuts ascending, deduplicated`,
        );
        for (const c of replay) {
          cuts++;
          assert.ok(safe.includes(c.cut), `${where}: cut ${c.cut} is a safe cut`);
          assert.equal(c.prefixTokens, index.prefixTokens[c.cut], `${where}: prefix tokens`);
          assert.ok(
            s.messages.slice(c.cut).some((m) => m.role === "assistant"),
            `${where}: cut ${c.cut} has a later assistant step`,
          );
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
          assert.equal(
            c.cut,
            safe.find((k) => index.prefixTokens[k]! >= share * total),
            `${where}: share-${share * 100} is the first safe cut reaching it`,
          );
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

describe("cut levels", () => {
  const LONG_SESSION = "258c7280-ae70-4798-800f-63464d01a85d"; // the 491-record (344-message) Claude Code session of e2e/human-labels
  const find = async (id: string) => (await loadAllTraces()).flatMap((t) => t.sessions).find((s) => s.session.id === id)!;

  test("the default protocol is pinned: every real trace gives today's cuts, with or without levels 50,70,90", async () => {
    const all: [string, string, unknown[]][] = [];
    for (const { entry, sessions } of await loadAllTraces()) {
      for (const { session: s, index } of sessions) {
        const replay = replayCuts(s, index);
        assert.deepEqual(replayCuts(s, index, { levels: DEFAULT_CUT_LEVELS }), replay, `${entry.path}#${s.id}`);
        all.push([entry.path, s.id, replay]);
      }
    }
    // Fingerprint of the protocol's output before levels became a setting (o200k, ../shared/traces),
    // re-pinned when Claude Code's split API responses became one message each (issue 17): the 228
    // sessions of other formats are unchanged; Claude Code prefixes lose 3 overhead tokens per merged
    // record, and cuts that fell between two records of one response (not a model-call boundary)
    // moved to the response's first record or the next response — two of them had no other safe
    // cut reaching their share (655 → 653). Re-pinned when inline sidechains became sessions of their
    // own (issue 17 item 3 follow-up): the 240 sessions of every other file are unchanged (651 cuts,
    // same fingerprint); the one file with inline sidechains went from one 345-message session with 2
    // cuts to its 23-message main session and five subagent threads, 16 cuts in all (241 → 246, 653 → 667).
    assert.equal(all.length, 246);
    assert.equal(
      all.reduce((n, [, , cuts]) => n + cuts.length, 0),
      667,
    );
    assert.equal(createHash("sha256").update(JSON.stringify(all)).digest("hex"), "4cbe0b6a8955f483c6d752665bd7925ca95cb9393562ca05c998bae152a94b17");
  });

  test("dense levels give ten cuts of the long Claude Code session: nine first-reaching levels and the native one", async () => {
    const { session: s, index } = await find(LONG_SESSION);
    assert.equal(replayCuts(s, index).length, 4);
    const dense = replayCuts(s, index, { levels: DENSE_CUT_LEVELS });
    assert.deepEqual(
      dense.map((c) => [c.cut, c.reasons.join("+")]),
      [
        [17, "share-10"],
        [49, "share-20"],
        [59, "share-30"],
        [61, "share-40"],
        [85, "share-50"],
        [147, "share-60"],
        [190, "share-70"],
        [227, "native"],
        [234, "share-80"],
        [287, "share-90"],
      ],
    );
    // The same moments in the file, each at a response's first record (lines 71 and 1245 were later records of one response).
    assert.deepEqual(
      dense.map((c) => s.messages[c.cut]!.source.line),
      [83, 337, 385, 397, 523, 843, 1041, 1244, 1279, 1550],
    );
    const defaults = replayCuts(s, index).map((c) => c.cut);
    assert.ok(
      defaults.every((cut) => dense.some((c) => c.cut === cut)),
      "the default cuts are among the dense ones",
    );
    assert.deepEqual(replayCuts(s, index, { levels: DENSE_CUT_LEVELS }), dense, "deterministic");
  });

  test("levels that land on the same safe boundary collapse into one cut carrying every level as a reason", async () => {
    // An orchestrating session whose Task results make its prefix jump past two levels in one step.
    const { session: s, index } = await find("fe5e1c67-53e7-4862-81ae-d0e013e3270b");
    const dense = replayCuts(s, index, { levels: DENSE_CUT_LEVELS });
    assert.deepEqual(
      dense.map((c) => [c.cut, c.reason, c.reasons]),
      [
        [2, "share-10", ["share-10"]],
        [5, "share-20", ["share-20"]],
        [11, "share-30", ["share-30", "share-40"]],
        [13, "share-50", ["share-50"]],
        [16, "share-60", ["share-60", "share-70"]],
        [20, "share-80", ["share-80"]],
        [22, "share-90", ["share-90"]],
      ],
    );
    assert.deepEqual(
      dense.map((c) => s.messages[c.cut]!.source.line),
      [4, 9, 224, 226, 431, 435, 438],
    );
  });

  test("levels are validated with each problem located at its index; text is read leniently", () => {
    const issues = (levels: unknown) => {
      const parsed = CutLevelsSchema.safeParse(levels);
      return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    };
    assert.deepEqual(issues([10, 20, 30]), []);
    assert.deepEqual(issues([0, 50, 100]), ["0: each cut level must be at least 1", "2: each cut level must be at most 99"]);
    assert.deepEqual(issues([50, 50.5]), ["1: each cut level must be a whole percent"]);
    assert.deepEqual(issues([50, 70, 40]), ["2: cut levels must be strictly increasing: 40 follows 70"]);
    assert.deepEqual(issues([50, 50]), ["1: cut levels must be strictly increasing: 50 follows 50"]);
    assert.deepEqual(issues([]), [": give at least one cut level"]);
    assert.deepEqual(issues(Array.from({ length: 21 }, (_, i) => i + 1)), [": give at most 20 cut levels"]);
    assert.deepEqual(issues([10, Number.NaN]), ["1: each cut level must be a number"]);
    assert.deepEqual(parseCutLevelsText(" 10, 20 ,30% "), [10, 20, 30]);
    assert.deepEqual(parseCutLevelsText(""), []);
    assert.ok(Number.isNaN(parseCutLevelsText("10,,x")[1]) && Number.isNaN(parseCutLevelsText("10,,x")[2]));
    assert.throws(
      () =>
        replayCuts(
          session([
            ["user", [text("hi")]],
            ["assistant", [text("ok")]],
          ]),
          analyze(
            session([
              ["user", [text("hi")]],
              ["assistant", [text("ok")]],
            ]),
          ).index,
          { levels: [70, 50] },
        ),
      /strictly increasing/,
    );
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
    assert.deepEqual(
      replay.map((c) => [c.cut, c.reasons]),
      [[5, ["native", `share-${Math.round(share * 100)}`]]],
    );
    assert.equal(replay[0]!.reason, "native");
  });

  test("includeNative false drops native cuts; shares order does not matter", () => {
    const withNative = replayCuts(a.session, a.index, { shares: [0.9, 0.5] });
    const without = replayCuts(a.session, a.index, { shares: [0.5, 0.9], includeNative: false });
    assert.ok(withNative.some((c) => c.reasons.includes("native")));
    assert.ok(!without.some((c) => c.reasons.includes("native")));
    assert.deepEqual(
      without.map((c) => c.reasons),
      [["share-50"], ["share-90"]].filter((_, i) => without[i]),
    );
  });

  test("a compaction before any safe cut, or at the very end with no assistant after, yields no cut", () => {
    const tail = session(
      [
        ["user", [text("hi")]],
        ["assistant", [text("hello")]],
        ["user", [text("bye")]],
      ],
      {
        compactions: [
          { kind: "other", beforeMessage: 0 },
          { kind: "other", beforeMessage: 3 },
        ],
      },
    );
    const t = analyze(tail);
    assert.deepEqual(
      replayCuts(t.session, t.index, { shares: [] }).map((c) => c.cut),
      [1],
    );
  });

  test("windowForCut puts the prefix at the trigger level", () => {
    assert.equal(windowForCut(900), 1000);
    assert.equal(windowForCut(500, 0.5), 1000);
    assert.ok(901 >= 0.9 * windowForCut(901), "the budget trigger holds exactly at the cut");
    assert.equal(windowForCut(0), 1);
  });
});

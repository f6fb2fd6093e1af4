import assert from "node:assert/strict";
import { test } from "node:test";
import { lowSignalReason, LOW_SIGNAL_DEFAULTS } from "../../../../../lib/compaction/policies/pruning/low-signal";
import { toolMaskPrunePolicy } from "../../../../../lib/compaction/policies/pruning/tool-mask-prune";
import { analyze, assertValidPairs, prose, run, session, step, text, viewByOrigin } from "./fixtures";

const words = prose(4_000, "m").split(/\s+/);
const logLike = Array.from({ length: 60 }, (_, i) => `2024-05-01 12:${String(i).padStart(2, "0")}:07 INFO loaded ${words[i]} from ${words[i + 60]}`).join("\n");
const repetitive = Array.from({ length: 80 }, (_, i) => `Waiting for server... attempt ${i}`).join("\n");
const signal = prose(3_000, "s");

test("low-signal: long, repetitive or log-like outputs; short or varied ones carry signal", () => {
  const t = LOW_SIGNAL_DEFAULTS;
  const table: [string, string, number, RegExp | undefined][] = [
    ["repetitive polling", repetitive, 640, /^repetitive output \(\d+% of 80 lines repeat\)$/],
    ["log lines with varied content", logLike, 900, /^log-like output \(100% of 60 lines\)$/],
    ["very long prose", signal, t.longTokens, /^long output/],
    ["varied prose", signal, 750, undefined],
    ["repetitive but short", repetitive, t.minTokens - 1, undefined],
    ["too few lines to judge shape", "a\na\na\na", 500, undefined],
  ];
  for (const [name, content, tokens, expected] of table) {
    const reason = lowSignalReason(content, tokens, t);
    if (expected) assert.match(reason ?? "", expected, name);
    else assert.equal(reason, undefined, name);
  }
});

const a = analyze(
  session([
    ["system", [text("sys")]],
    ["user", [text("Bring the server up and check the logs")]],
    ...step("c1", "Bash", signal),
    ...step("c2", "Bash", logLike),
    ...step("c3", "Bash", repetitive),
    ["assistant", [text("Server is up.")]],
    ["user", [text("Thanks")]],
    ["assistant", [text("You're welcome.")]],
  ]),
);
const prefix = a.index.prefixTokens.at(-1)!;

test("masks the low-signal outputs before it prunes anything, and stops once the target is met", async () => {
  const window = Math.ceil((prefix - 1_000) / 0.3);
  const r = await run(toolMaskPrunePolicy, a, { window });
  assert.deepEqual(
    r.actions.map((x) => [x.target, x.action, x.rule]),
    [
      ["function:exec:2", "mask", "tool-mask-prune/mask-low-signal"],
      ["function:exec:3", "mask", "tool-mask-prune/mask-low-signal"],
    ],
    "the older, informative output exec:1 is left alone",
  );
  const masked = viewByOrigin(r).get(5)!.parts[0]!;
  assert.equal(masked.type === "tool_result" && masked.content.startsWith("2024-05-01 12:00:07 INFO"), true, "mask keeps the first lines");
  assertValidPairs(r);
});

test("prunes the remaining outputs oldest-first when masking is not enough, masked ones last", async () => {
  const r = await run(toolMaskPrunePolicy, a, { window: 100 });
  const rules = new Map(r.actions.filter((x) => x.rule !== "harness/lineage-repair").map((x) => [x.target, x.rule]));
  assert.deepEqual(
    [...rules],
    [
      ["function:exec:2", "tool-mask-prune/prune-masked"],
      ["function:exec:3", "tool-mask-prune/prune-masked"],
      ["function:exec:1", "tool-mask-prune/prune-oldest"],
    ],
  );
  assert.ok(
    r.log.some((l) => l.includes("masked 2 low-signal")),
    r.log.join("\n"),
  );
  assertValidPairs(r);
});

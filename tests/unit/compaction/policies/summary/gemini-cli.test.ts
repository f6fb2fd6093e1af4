import assert from "node:assert/strict";
import { test } from "node:test";
import { buildContextIndex } from "../../../../../lib/compaction/context/objects";
import { trimItemsFrom } from "../../../../../lib/compaction/policies/pretrim/types";
import { findCompressSplitPoint, geminiCliPolicy as policy } from "../../../../../lib/compaction/policies/summary/gemini-cli";
import type { Session } from "../../../../../lib/trace/model";
import { fires, origins, prefixTokens, recordingSummarizer, run, session, text, tokenizer } from "./fixtures";

function split(s: Session, fraction = 0.7): number {
  const items = trimItemsFrom(
    s.messages,
    s.messages.map((m) => m.index),
    buildContextIndex(s, tokenizer),
  );
  return findCompressSplitPoint(items, fraction);
}

const splitCases: [string, Session, number][] = [
  [
    "the first user content at or after 70% of the characters",
    session([
      ["user", text(250)],
      ["assistant", text(250)],
      ["user", text(250)],
      ["assistant", text(250)],
      ["user", text(25)],
      ["assistant", text(25)],
    ]),
    4,
  ],
  [
    "tool results are never split points",
    session([
      ["user", text(250)],
      ["call", "c1", "Read"],
      ["result", "c1", text(500)],
      ["assistant", text(250)],
      ["result", "c1", "late"],
      ["user", "go on"],
      ["assistant", "ok"],
    ]),
    5,
  ],
  [
    "none after 70% and the last content is a model message without calls: compress everything",
    session([
      ["user", text(10)],
      ["assistant", text(1_000)],
    ]),
    2,
  ],
  [
    "none after 70% and the model is mid-call: the last valid split point",
    session([
      ["user", text(10)],
      ["assistant", text(100)],
      ["user", text(10)],
      ["call", "c1", "Bash"],
      ["result", "c1", text(1_000)],
    ]),
    2,
  ],
];
for (const [name, s, expected] of splitCases) {
  test(`findCompressSplitPoint: ${name}`, () => assert.equal(split(s), expected));
}

const s = session([
  ["system", "sys"],
  ["user", text(300)],
  ["call", "c1", "Read"],
  ["result", "c1", text(1_000)],
  ["assistant", text(300)],
  ["user", text(100)],
  ["call", "c2", "Bash"],
  ["result", "c2", text(200)],
  ["assistant", text(50)],
  ["user", text(20)],
  ["assistant", text(20)],
]);

test("new history: system, the state snapshot, the acknowledgement, then the kept 30%", async () => {
  const result = await run(policy, s);
  assert.deepEqual(origins(result), [0, "summary", "summary", 5, 6, 7, 8, 9, 10]);
  assert.equal(result.view[1]!.role, "user");
  assert.equal(result.view[2]!.role, "assistant");
  assert.ok(result.summary!.startsWith("<state_snapshot>") && result.summary!.endsWith("</state_snapshot>"));
  assert.equal(result.tailStart, 5);
  assert.ok(result.actions.filter((a) => a.action === "summarize").every((a) => a.rule === "gemini-cli/split-point"));
});

// The budget walk keeps the newest 100-token output and cuts the older 1,000-token one, which sits
// in the kept 30%.
const budgeted = session([
  ["system", "sys"],
  ["user", text(2_000)],
  ["assistant", text(10)],
  ["user", text(20)],
  ["call", "c1", "Read"],
  ["result", "c1", text(1_000)],
  ["call", "c2", "Bash"],
  ["result", "c2", text(100)],
  ["assistant", text(10)],
  ["user", text(20)],
  ["assistant", text(10)],
]);
const smallBudget = { functionResponseBudget: 150, truncateToolOutputChars: 400 };

test("pre-trim: tool output past the function-response budget becomes the 20/80 'Output too large' form in the kept part", async () => {
  const result = await run(policy, budgeted, { params: smallBudget });
  assert.deepEqual(origins(result), [0, "summary", "summary", 3, 4, 5, 6, 7, 8, 9, 10]);
  const kept = result.view.find((v) => v.origin === 5)!.parts[0]!;
  assert.equal(kept.action, "truncate");
  assert.ok(kept.type === "tool_result" && kept.content.startsWith("Output too large. Showing the first 80 and last 320 characters"));
  assert.equal(result.view.find((v) => v.origin === 7)!.parts[0]!.action, undefined, "the newest output is within budget");
  assert.equal(result.actions.find((a) => a.action === "truncate")!.rule, "gemini-cli/function-response-budget");
  assert.equal(result.sidecars.length, 1, "the full output is spilled");
});

// Everything compressible is small: a near-cap snapshot would be larger than what it replaces.
const small = session([
  ["system", "sys"],
  ["user", text(50)],
  ["assistant", text(50)],
  ["user", text(30)],
  ["call", "c1", "Bash"],
  ["result", "c1", text(1_000)],
  ["assistant", text(10)],
  ["user", text(10)],
  ["assistant", text(10)],
]);

test("rejects a compression that inflates the token count and returns the pre-trimmed history", async () => {
  const summarizer = recordingSummarizer(text(1_990, "s"));
  const result = await run(policy, small, { summarizer, params: smallBudget });
  assert.ok(
    result.log.some((l) => l.startsWith("COMPRESSION_FAILED_INFLATED_TOKEN_COUNT")),
    result.log.join("\n"),
  );
  assert.equal(result.summary, undefined);
  assert.deepEqual(
    origins(result),
    small.messages.map((m) => m.index),
  );
  const output = result.view[5]!.parts[0]!;
  assert.ok(output.type === "tool_result" && output.action === "truncate" && output.content.startsWith("Output too large."));
  assert.ok(result.tokensAfter < result.tokensBefore);
});

test("threshold: fires at 0.5 of the token limit", () => {
  assert.equal(fires(policy, s, Math.floor(prefixTokens(s) / 0.5)), true);
  assert.equal(fires(policy, s, Math.ceil(prefixTokens(s) / 0.49)), false);
});

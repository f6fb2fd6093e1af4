import assert from "node:assert/strict";
import { test } from "node:test";
import { buildContextIndex } from "../../../../../lib/compaction/context/objects";
import {
  capItemLength,
  capToolResponseBudget,
  CLEARED_PLACEHOLDER,
  CODEX_TOOL_OUTPUT_CAP,
  dropAgentItemsNewestFirst,
  dropOldestUntilFits,
  markOldToolOutputsCleared,
  OPENCODE_TOOL_OUTPUT_CAP,
  runPretrim,
  trimItemsFrom,
  truncateToolOutputsToLastLines,
  type PretrimResult,
  type TrimItem,
} from "../../../../../lib/compaction/policies/pretrim";
import type { Session } from "../../../../../lib/trace/model";
import { sha256Hex } from "../../../../../lib/util/sha256";
import { session, text, tokenizer } from "./fixtures";

function items(s: Session): TrimItem[] {
  return trimItemsFrom(
    s.messages,
    s.messages.map((m) => m.index),
    buildContextIndex(s, tokenizer),
  );
}
const originsOf = (r: PretrimResult) => r.items.map((i) => i.origin);
function content(r: PretrimResult, origin: number): string {
  const part = r.items.find((i) => i.origin === origin)!.message.parts[0]!;
  return part.type === "tool_result" ? part.content : part.type === "text" ? part.text : "";
}

// 103 · 203 · 303 · 403 tokens.
const ladder = session([
  ["user", text(100)],
  ["assistant", text(200)],
  ["user", text(300)],
  ["assistant", text(400)],
]);

test("drop-oldest-until-fits drops from the front until the input fits, keeping the newest", () => {
  const out = dropOldestUntilFits({ budget: 710 })(items(ladder), tokenizer);
  assert.deepEqual(originsOf(out), [2, 3]);
  assert.match(out.log[0]!, /dropped the 2 oldest items \(306 tokens\)/);
  assert.deepEqual(originsOf(dropOldestUntilFits({ budget: 10 })(items(ladder), tokenizer)), [3], "the newest item always survives");
  assert.deepEqual(originsOf(dropOldestUntilFits({ budget: 2_000 })(items(ladder), tokenizer)), [0, 1, 2, 3]);
});

test("drop-agent-items-newest-first drops agent items from the newest end and never a user message", () => {
  const s = session([
    ["user", text(100)],
    ["assistant", text(200)],
    ["call", "c1", "Read"],
    ["result", "c1", text(300)],
    ["user", text(100)],
    ["assistant", text(400)],
  ]);
  const out = dropAgentItemsNewestFirst({ budget: 700 })(items(s), tokenizer);
  assert.deepEqual(originsOf(out), [0, 1, 2, 4], "the newest assistant (403) and the tool output (303) go first");
  const tight = dropAgentItemsNewestFirst({ budget: 0 })(items(s), tokenizer);
  assert.deepEqual(originsOf(tight), [0, 4], "only user messages are left");
});

test("truncate-tool-outputs-to-last-lines keeps the last 30 lines and spills the original to a sidecar", () => {
  const long = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join("\n");
  const s = session([
    ["call", "c1", "Bash"],
    ["result", "c1", long],
    ["call", "c2", "Bash"],
    ["result", "c2", "short\noutput"],
  ]);
  const out = truncateToolOutputsToLastLines()(items(s), tokenizer);
  const cut = content(out, 1);
  const [marker, ...kept] = cut.split("\n");
  assert.equal(kept.length, 30);
  assert.equal(kept[0], "line 71");
  assert.equal(out.sidecars.length, 1);
  assert.equal(out.sidecars[0]!.payload, long);
  assert.equal(out.sidecars[0]!.sha256, sha256Hex(long));
  assert.ok(marker!.includes("70 earlier lines") && marker!.includes(`sidecar sha256:${out.sidecars[0]!.sha256.slice(0, 12)}`));
  assert.equal(content(out, 3), "short\noutput", "short outputs are untouched");
  assert.equal(out.edits[0]!.target, "function:exec:1");
});

test("cap-tool-response-budget keeps the newest outputs within budget and cuts older ones to the 20/80 form", () => {
  const old = `${"H".repeat(1_000)}${"m".repeat(2_000)}${"T".repeat(1_000)}`;
  const s = session([
    ["call", "c1", "Read"],
    ["result", "c1", old],
    ["call", "c2", "Read"],
    ["result", "c2", text(100)],
    ["call", "c3", "Read"],
    ["result", "c3", text(100)],
    ["call", "c4", "Read"],
    ["result", "c4", text(50)],
  ]);
  const out = capToolResponseBudget({ budget: 250, maxChars: 400, headShare: 0.2 })(items(s), tokenizer);
  const cut = content(out, 1);
  assert.ok(cut.startsWith("Output too large. Showing the first 80 and last 320 characters; the full output is in sidecar sha256:"));
  assert.ok(cut.includes(`\n${"H".repeat(80)}\n\n... [3,600 characters omitted] ...\n\n${"T".repeat(320)}`));
  assert.equal(content(out, 5), text(100), "the newest 250 tokens are kept in full");
  assert.equal(content(out, 7), text(50), "an over-budget output under maxChars is kept (Gemini formats only longer ones)");
  assert.equal(out.edits.length, 1);
  assert.equal(out.sidecars[0]!.payload, old);
});

test("mark-old-tool-outputs-cleared protects the 2 newest turns and clears outputs past the protect window above the minimum", () => {
  const s = session([
    ["user", "u1"],
    ["call", "c1", "Read"],
    ["result", "c1", text(200)],
    ["call", "c2", "Read"],
    ["result", "c2", text(200)],
    ["user", "u2"],
    ["call", "c3", "Read"],
    ["result", "c3", text(200)],
    ["user", "u3"],
    ["assistant", "ok"],
  ]);
  const options = { protectTokens: 100, minimumTokens: 50, protectTurns: 2, protectedTools: ["skill"] };
  const out = markOldToolOutputsCleared(options)(items(s), tokenizer);
  assert.equal(content(out, 2), CLEARED_PLACEHOLDER);
  assert.equal(content(out, 4), CLEARED_PLACEHOLDER, "the first output past the window is cleared too");
  assert.equal(content(out, 7), text(200), "inside the 2 newest turns");
  assert.equal(out.sidecars.length, 2);
  const under = markOldToolOutputsCleared({ ...options, minimumTokens: 500 })(items(s), tokenizer);
  assert.equal(under.edits.length, 0, "400 tokens do not clear the 500-token minimum");
  assert.match(under.log[0]!, /nothing cleared/);
  const again = markOldToolOutputsCleared(options)(out.items, tokenizer);
  assert.equal(again.edits.length, 0, "the walk stops at an already-cleared output");
});

test("per-item caps: Codex 10K tokens middle, OpenCode 2,000 chars head", () => {
  const s = session([
    ["call", "c1", "Bash"],
    ["result", "c1", text(12_000)],
    ["call", "c2", "Bash"],
    ["result", "c2", text(1_000)],
  ]);
  const codex = capItemLength(CODEX_TOOL_OUTPUT_CAP)(items(s), tokenizer);
  assert.ok(tokenizer.count(content(codex, 1)) <= 10_000 && content(codex, 1).includes("tokens truncated"));
  assert.equal(content(codex, 3), text(1_000));
  const opencode = capItemLength(OPENCODE_TOOL_OUTPUT_CAP)(items(s), tokenizer);
  assert.equal(content(opencode, 3), `${text(1_000).slice(0, 2_000)}\n[truncated]`);
});

test("runPretrim composes moves in order and keeps one edit per part, original → final", () => {
  const long = Array.from({ length: 100 }, (_, i) => `${i}`.padStart(200, "x")).join("\n");
  const s = session([
    ["user", "u"],
    ["call", "c1", "Bash"],
    ["result", "c1", long],
  ]);
  const original = items(s);
  const out = runPretrim(original, [truncateToolOutputsToLastLines(), capItemLength(OPENCODE_TOOL_OUTPUT_CAP)], tokenizer);
  assert.equal(out.edits.length, 1);
  assert.equal(out.edits[0]!.tokensBefore, original[2]!.results.get(0)!.tokens);
  assert.ok(out.edits[0]!.text.endsWith("[truncated]"));
  assert.equal(out.log.length, 2);
  assert.equal(out.items[2]!.tokens, 3 + out.edits[0]!.tokensAfter, "item tokens follow the rewrite");
});

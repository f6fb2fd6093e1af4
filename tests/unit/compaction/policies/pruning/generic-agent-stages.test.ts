import assert from "node:assert/strict";
import { test } from "node:test";
import {
  FILE_READ_LINE_CHARS,
  STAGE1_LIMITS,
  stage1Limit,
  truncateToolOutput,
} from "../../../../../lib/compaction/policies/pruning/generic-agent/stage1-truncate";
import {
  compressTags,
  lastPassEnd,
  STAGE2_MARKER,
  windowArguments,
  windowText,
} from "../../../../../lib/compaction/policies/pruning/generic-agent/stage2-compress";
import type { Role } from "../../../../../lib/trace/model";

test("stage 1 thresholds follow seed 002 Table 1 through our tool names", () => {
  const table: [string, string, string, number][] = [
    ["exec", "Bash", "code_run", 10_000],
    ["browser", "browser_snapshot", "web_scan", 10_000],
    ["browser", "web_execute_js", "web_execute_js", 8_000],
    ["read", "Read", "file_read", 20_000],
    ["grep", "Grep", "default", 10_000],
  ];
  for (const [tool, rawTool, gaTool, limit] of table) assert.deepEqual(stage1Limit({ tool, rawTool }), { gaTool, limit }, rawTool);
  assert.equal(STAGE1_LIMITS.default, 10_000);
});

test("stage 1 keeps the first and last L/2 characters of an output longer than L", () => {
  const long = `${"h".repeat(6_000)}${"m".repeat(20_000)}${"t".repeat(6_000)}`;
  const out = truncateToolOutput(long, stage1Limit({ tool: "exec", rawTool: "Bash" }));
  assert.equal(out.slice(0, 5_000), "h".repeat(5_000));
  assert.equal(out.slice(-5_000), "t".repeat(5_000));
  assert.match(out, /\n\.\.\.\[22000 chars omitted\]\.\.\.\n/);
  const exact = "x".repeat(10_000);
  assert.equal(truncateToolOutput(exact, stage1Limit({ tool: "exec" })), exact, "L itself is kept whole");
});

test("stage 1 file_read also caps each line at ~1,280 chars", () => {
  const out = truncateToolOutput(`short\n${"y".repeat(3_000)}\nend`, stage1Limit({ tool: "read" }));
  assert.equal(out, `short\n${"y".repeat(FILE_READ_LINE_CHARS)} ... [TRUNCATED]\nend`);
});

test("stage 2 windows to the first and last 400 of ~800 characters, idempotently", () => {
  assert.equal(windowText("z".repeat(800)), "z".repeat(800));
  const once = windowText(`${"a".repeat(500)}${"b".repeat(500)}`);
  assert.equal(once, `${"a".repeat(400)}${STAGE2_MARKER}${"b".repeat(400)}`);
  assert.equal(windowText(once), once);
});

test("stage 2 replaces working-memory blocks with placeholders and windows reasoning/tool tags", () => {
  const text = `<history>\n${"old line\n".repeat(50)}</history> keep <key_info>k</key_info> <thinking>${"q".repeat(2_000)}</thinking>`;
  assert.equal(
    compressTags(text),
    `<history>[...]</history> keep <key_info>[...]</key_info> <thinking>${"q".repeat(400)}${STAGE2_MARKER}${"q".repeat(400)}</thinking>`,
  );
  assert.equal(compressTags("no tags at all"), "no tags at all");
});

test("stage 2 windows long tool-call input values, not the whole call", () => {
  const args = JSON.stringify({ path: "src/a.py", content: "c".repeat(2_000) });
  assert.deepEqual(JSON.parse(windowArguments(args)), { path: "src/a.py", content: `${"c".repeat(400)}${STAGE2_MARKER}${"c".repeat(400)}` });
  const raw = `echo ${"r".repeat(2_000)}`;
  assert.equal(windowArguments(raw), windowText(raw));
});

test("stage 2's last regular pass: every 5th call, sparing the 10 newest messages of that call's history", () => {
  const run = (assistants: number): Role[] => ["user", ...Array.from({ length: assistants }, (): Role[] => ["assistant", "tool"]).flat()];
  const table: [number, { end: number; call: number }][] = [
    [3, { end: 0, call: 0 }], // next call is the 4th: no pass yet
    [4, { end: 0, call: 5 }], // the pass runs now over 9 messages: all within the newest 10
    [12, { end: 9, call: 10 }], // pass at call 10: history = 19 messages before the 10th assistant, 10 spared
    [14, { end: 19, call: 15 }], // pass now: 29 messages, the 19 oldest compressed
  ];
  for (const [assistants, expected] of table)
    assert.deepEqual(
      lastPassEnd(
        run(assistants).map((role) => ({ role })),
        5,
        10,
      ),
      expected,
      `${assistants} assistant messages`,
    );
  assert.deepEqual(
    lastPassEnd(
      run(14).map((role) => ({ role })),
      7,
      10,
    ),
    { end: 17, call: 14 },
    "GA HEAD interval 7: pass at call 14, before the 14th assistant message (27 messages)",
  );
});

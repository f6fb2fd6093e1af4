import assert from "node:assert/strict";
import { test } from "node:test";
import { redactLines, redactSession, type LineRedaction } from "../../../lib/redact";
import type { Session } from "../../../lib/trace/model";

const KEY = "sk-proj-abcdefghijklmnopqrstuvwxyz0123";

const session: Session = {
  id: "s",
  format: "openai_chat",
  title: `use ${KEY}`,
  models: [],
  compactions: [{ kind: "other", beforeMessage: 1, summary: `token=${KEY}`, source: { file: "f", line: 1 } }],
  messages: [
    {
      index: 0,
      role: "user",
      source: { file: "f", line: 1 },
      parts: [
        { type: "text", text: `use ${KEY}` },
        { type: "reasoning", text: "no secret" },
      ],
    },
    {
      index: 1,
      role: "assistant",
      source: { file: "f", line: 2 },
      parts: [{ type: "tool_call", id: "c", name: "bash", arguments: JSON.stringify({ cmd: `curl -H "Authorization: Bearer ${KEY}"`, env: ["A=1"] }) }],
    },
    { index: 2, role: "tool", source: { file: "f", line: 3 }, parts: [{ type: "tool_result", callId: "c", content: `AKIAIOSFODNN7EXAMPLE` }] },
  ],
};

test("every part kind is redacted, JSON arguments stay valid, the report locates each secret", () => {
  const { session: out, redactions } = redactSession(session);
  assert.ok(!JSON.stringify(out).includes("abcdefghij"));
  const args = JSON.parse((out.messages[1]!.parts[0] as { arguments: string }).arguments);
  assert.equal(args.cmd, 'curl -H "Authorization: Bearer [REDACTED:openai_key]"');
  assert.deepEqual(args.env, ["A=1"]);
  const located = redactions.map((r) => [r.field, r.message ?? -1, r.part ?? -1, r.kind].join(" ")).sort();
  assert.deepEqual(located, [
    "arguments.cmd 1 0 openai_key",
    "compactions[0].summary -1 -1 openai_key",
    "content 2 0 aws_access_key",
    "text 0 0 openai_key",
    "title -1 -1 openai_key",
  ]);
  assert.equal(new Set(redactions.filter((r) => r.kind === "openai_key").map((r) => r.fingerprint)).size, 1, "one key, one fingerprint");
  assert.equal(session.messages[0]!.parts[0]!.type === "text" && session.messages[0]!.parts[0]!.text, `use ${KEY}`, "input untouched");
});

test("raw lines: a multi-line PEM key is replaced line by line and reported with line numbers", async () => {
  const report: LineRedaction[] = [];
  const out: string[] = [];
  for await (const line of redactLines(["a", "-----BEGIN PRIVATE KEY-----", "MIIEvQ", "-----END PRIVATE KEY-----", `k=${KEY}`], report)) out.push(line);
  assert.deepEqual(out, ["a", "[REDACTED:private_key]", "[REDACTED:private_key]", "[REDACTED:private_key]", "k=[REDACTED:openai_key]"]);
  assert.deepEqual(
    report.map((r) => [r.line, r.kind]),
    [
      [2, "private_key"],
      [3, "private_key"],
      [4, "private_key"],
      [5, "openai_key"],
    ],
  );
});

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { before, describe, it } from "node:test";
import { geminiApiContentsImporter } from "../../../lib/trace/importers/gemini-api-contents";
import type { ParseIssue, Part, Session } from "../../../lib/trace/model";
import { sourceFromText } from "../../../lib/trace/source";
import { sourceFromFile } from "../../../server/trace/files/file-source";
import { readAllManifests, readNewManifest } from "../../helpers/traces-new";

const row = readNewManifest().find((r) => r.format === "gemini_api_contents")!;
const partsOf = (s: Session, type: Part["type"]) => s.messages.flatMap((m) => m.parts.filter((p) => p.type === type));
const pretty = (value: unknown) => JSON.stringify(value, null, 2);
const parse = (text: string) => geminiApiContentsImporter.parse(sourceFromText("checkpoint-x.json", text));

describe("gemini_api_contents: Gemini CLI's raw history (trajectory.json)", () => {
  let session: Session;
  let issues: ParseIssue[];
  let raw: { role: string; parts: Record<string, unknown>[] }[];
  before(async () => {
    const result = await geminiApiContentsImporter.parse(await sourceFromFile(row.absolutePath, row.path));
    session = result.sessions[0]!;
    issues = result.issues;
    raw = JSON.parse(readFileSync(row.absolutePath, "utf8"));
  });

  it("makes one message per content: model → assistant, functionResponse turns → tool, the rest → user", () => {
    assert.deepEqual(issues, []);
    assert.equal(session.id, "trajectory");
    assert.equal(session.messages.length, raw.length);
    raw.forEach((content, i) => {
      const expected = content.role === "model" ? "assistant" : content.parts.some((p) => "functionResponse" in p) ? "tool" : "user";
      assert.equal(session.messages[i]!.role, expected, `content ${i}`);
    });
    assert.deepEqual(
      ["user", "assistant", "tool"].map((r) => session.messages.filter((m) => m.role === r).length),
      [8, 52, 45],
    );
    assert.ok(session.title.startsWith("<session_context>"));
  });

  it("keeps thoughts as reasoning and drops thought signatures", () => {
    const thoughts = raw.flatMap((c) => c.parts.filter((p) => p.thought === true));
    assert.equal(partsOf(session, "reasoning").length, thoughts.length);
    assert.equal(partsOf(session, "other").length, 0, "a signature becomes no part of its own");
    assert.equal(
      session.messages.reduce((n, m) => n + m.parts.length, 0),
      raw.reduce((n, c) => n + c.parts.length, 0),
      "one part per API part",
    );
  });

  it("links responses to calls by id; the one response whose call the history lacks is an orphan", () => {
    const results = partsOf(session, "tool_result");
    const orphans = results.filter((p) => p.type === "tool_result" && p.orphan);
    assert.deepEqual(
      orphans.map((p) => p.type === "tool_result" && [p.callId, p.name]),
      [["nlcjynug", "run_shell_command"]],
    );
    assert.ok(
      results.every((p) => p.type === "tool_result" && (p.orphan || p.name)),
      "linked results carry their call's name",
    );
  });

  it("points every message at its content's opening brace", () => {
    const lines = readFileSync(row.absolutePath, "utf8").split("\n");
    for (const m of session.messages) assert.equal(lines[m.source.line - 1], "  {", `message ${m.index}`);
  });
});

describe("gemini_api_contents: other shapes", () => {
  it("pairs id-less calls and responses by name, oldest call first", async () => {
    const contents = [
      { role: "user", parts: [{ text: "read both" }] },
      { role: "model", parts: [{ functionCall: { name: "read_file", args: { path: "a" } } }, { functionCall: { name: "read_file", args: { path: "b" } } }] },
      {
        role: "user",
        parts: [
          { functionResponse: { name: "read_file", response: { output: "A" } } },
          { functionResponse: { name: "read_file", response: { error: "no b" } } },
        ],
      },
    ];
    const { sessions } = await parse(pretty(contents));
    const [calls, results] = [partsOf(sessions[0]!, "tool_call"), partsOf(sessions[0]!, "tool_result")];
    assert.deepEqual(
      calls.map((c) => c.type === "tool_call" && [c.id, c.arguments]),
      [
        ["call_1", '{"path":"a"}'],
        ["call_2", '{"path":"b"}'],
      ],
    );
    assert.deepEqual(results, [
      { type: "tool_result", callId: "call_1", name: "read_file", content: "A" },
      { type: "tool_result", callId: "call_2", name: "read_file", content: "no b", isError: true },
    ]);
  });

  it("accepts a request body's {contents} and locates fields under it", async () => {
    const text = pretty({
      contents: [
        { role: "user", parts: [{ text: "hi" }] },
        { role: "system", parts: [{ text: "?" }] },
        { role: "model", parts: [{ text: "hello" }] },
      ],
    });
    const { sessions, issues } = await parse(text);
    assert.deepEqual(
      sessions[0]!.messages.map((m) => m.role),
      ["user", "assistant"],
    );
    assert.deepEqual(
      issues.map((i) => [i.severity, i.field, i.line]),
      [["error", "contents[1].role", 12]],
    );
    assert.match(issues[0]!.expected ?? "", /"user" \| "model"/);
  });

  it("an object that is no history is an error naming the shape", async () => {
    const { sessions, issues } = await parse(pretty({ role: "user", parts: [] }));
    assert.equal(sessions.length, 0);
    assert.match(issues[0]!.message, /expected a Gemini Content\[\] array, found an object/);
  });
});

describe("gemini_api_contents: detection", () => {
  it("scores its own file at least 0.9 and every other real trace below 0.3", async () => {
    for (const entry of readAllManifests()) {
      const { head } = await sourceFromFile(entry.absolutePath, entry.path);
      const score = geminiApiContentsImporter.detect(entry.path, head);
      if (entry.format === "gemini_api_contents") assert.ok(score >= 0.9, entry.path);
      else assert.ok(score < 0.3, `${entry.path}: ${score}`);
    }
  });
});

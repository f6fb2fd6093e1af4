import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, it } from "node:test";
import { anthropicMessagesImporter } from "../../../lib/trace/importers/anthropic-messages";
import { openaiChatImporter } from "../../../lib/trace/importers/openai-chat";
import { openaiResponsesImporter } from "../../../lib/trace/importers/openai-responses";
import type { ParseIssue } from "../../../lib/trace/model";
import { HEAD_BYTES, sourceFromText } from "../../../lib/trace/source";
import { sourceFromFile } from "../../../server/trace/files/file-source";
import { readManifest } from "../../helpers/traces";

const FIXTURES = resolve(__dirname, "../../fixtures");
const fixture = (name: string) => resolve(FIXTURES, "openai-chat", name);
const parseFixture = async (name: string) => openaiChatImporter.parse(await sourceFromFile(fixture(name), name));
const parseJson = (value: unknown, name = "chat.json") => openaiChatImporter.parse(sourceFromText(name, JSON.stringify(value, null, 2)));
const errorsOf = (issues: ParseIssue[]) => issues.filter((i) => i.severity === "error");
const located = (issues: ParseIssue[]) => issues.map((i) => [i.line, i.field, i.severity]);

describe("openai_chat: accepted shapes", () => {
  it("an array of messages: roles, tool call ↔ result, image placeholder, message lines", async () => {
    const { sessions, issues } = await parseFixture("messages-array.json");
    assert.deepEqual(issues, []);
    const [session] = sessions;
    assert.ok(session);
    assert.equal(session.format, "openai_chat");
    assert.deepEqual(
      session.messages.map((m) => m.role),
      ["system", "user", "assistant", "tool", "assistant"],
    );
    assert.deepEqual(session.messages[1]!.parts, [{ type: "text", text: "Find me a train from Ghent to Bruges." }, { type: "image" }]);
    assert.deepEqual(session.messages[2]!.parts, [
      { type: "tool_call", id: "call_rail_1", name: "search_trains", arguments: '{"from":"Ghent","to":"Bruges"}' },
    ]);
    assert.deepEqual(session.messages[3]!.parts, [
      { type: "tool_result", callId: "call_rail_1", name: "search_trains", content: '[{"dep":"09:12","arr":"09:36"}]' },
    ]);
    const lines = readFileSync(fixture("messages-array.json"), "utf8").split("\n");
    for (const m of session.messages) assert.equal(lines[m.source.line - 1]!.trim(), "{", `message ${m.index} points at its object`);
  });

  it("a request body with its response: choices[0].message appended with model and usage", async () => {
    const { sessions, issues } = await parseFixture("request-with-response.json");
    assert.deepEqual(issues, []);
    const session = sessions[0]!;
    assert.deepEqual(
      session.messages.map((m) => m.role),
      ["system", "user", "assistant"],
      "developer maps to system",
    );
    const reply = session.messages[2]!;
    assert.deepEqual(reply.parts, [{ type: "text", text: "Saturn, with well over a hundred confirmed moons." }]);
    assert.equal(reply.model, "gpt-4o-2024-08-06");
    assert.deepEqual(reply.usage, { inputTokens: 31, outputTokens: 12, cachedInputTokens: 0 });
    assert.deepEqual(session.models, ["gpt-4o-2024-08-06"]);
  });

  it("JSONL: one session per line (object or array); a truncated line is skipped, the rest imports", async () => {
    const { sessions, issues } = await parseFixture("sessions.jsonl");
    assert.equal(sessions.length, 3);
    assert.deepEqual(
      sessions.map((s) => s.messages[0]!.source.line),
      [1, 2, 4],
    );
    assert.deepEqual(sessions[0]!.models, ["gpt-4o-mini"]);
    const oslo = sessions[1]!;
    assert.deepEqual(
      oslo.messages.map((m) => m.role),
      ["user", "assistant", "tool", "tool"],
    );
    const [linked, stale] = oslo.messages.slice(2).map((m) => m.parts[0]!);
    assert.ok(linked?.type === "tool_result" && linked.name === "weather" && !linked.orphan);
    assert.ok(stale?.type === "tool_result" && stale.orphan, "a result for an unknown call is kept as an orphan");
    const truncated = issues.find((i) => i.line === 3);
    assert.match(truncated?.message ?? "", /invalid JSON/);
  });

  it("a document array of requests gives one session each, with fields and lines per request", async () => {
    const requests = [
      { model: "m1", messages: [{ role: "user", content: "one" }] },
      {
        model: "m2",
        messages: [
          { role: "user", content: "two" },
          { role: "wizard", content: "?" },
        ],
      },
    ];
    const { sessions, issues } = await parseJson(requests);
    assert.deepEqual(
      sessions.map((s) => [s.title, s.models[0]]),
      [
        ["one", "m1"],
        ["two", "m2"],
      ],
    );
    const wizardObjectLine = JSON.stringify(requests, null, 2)
      .split("\n")
      .findIndex((l) => l.includes('"wizard"'));
    assert.deepEqual(located(issues), [[wizardObjectLine, "[1].messages[1].role", "error"]], "the line where that message's object opens");
  });

  it("a bare Chat Completions response imports as its one assistant message", async () => {
    const { sessions, issues } = await parseJson({ object: "chat.completion", model: "gpt-4.1", choices: [{ message: { role: "assistant", content: "hi" } }] });
    assert.deepEqual(issues, []);
    assert.deepEqual(
      sessions[0]!.messages.map((m) => [m.role, m.model]),
      [["assistant", "gpt-4.1"]],
    );
  });
});

describe("openai_chat: bad input gives located issues", () => {
  it("wrong types and a missing role on line 4 are reported by field; the valid messages import", async () => {
    const { sessions, issues } = await parseFixture("sessions.jsonl");
    assert.deepEqual(located(errorsOf(issues)), [
      [3, undefined, "error"],
      [4, "messages[0].role", "error"],
      [4, "messages[1].content", "error"],
      [4, "messages[2]", "error"],
      [4, "messages[3].tool_calls", "error"],
    ]);
    assert.equal(issues.find((i) => i.field === "messages[0].role")?.expected, "system | developer | user | assistant | tool");
    assert.deepEqual(
      sessions[2]!.messages.map((m) => [m.role, m.parts[0]]),
      [
        ["user", { type: "text", text: "42" }],
        ["assistant", { type: "text", text: "still imported" }],
      ],
    );
  });

  it("messages that is not an array, and objects that are neither request nor response", async () => {
    assert.deepEqual(located((await parseJson({ messages: "hello" })).issues), [[2, "messages", "error"]]);
    const neither = await parseJson({ prompt: "hello" });
    assert.deepEqual(neither.sessions, []);
    assert.equal(errorsOf(neither.issues).length, 1);
  });

  it("a truncated pretty-printed document reports the line where it stops", async () => {
    const { sessions, issues } = await openaiChatImporter.parse(sourceFromText("cut.json", '[\n  {"role": "user",\n   "content": "hel'));
    assert.deepEqual(sessions, []);
    assert.equal(errorsOf(issues)[0]?.line, 3);
  });
});

describe("openai_chat: detection", () => {
  const manifest = readManifest();

  it("scores its fixtures at least 0.5 and above the other message formats", async () => {
    for (const name of readdirSync(resolve(FIXTURES, "openai-chat"))) {
      const { head } = await sourceFromFile(fixture(name), name);
      const score = openaiChatImporter.detect(name, head);
      assert.ok(score >= 0.5, name);
      assert.ok(score > openaiResponsesImporter.detect(name, head) && score > anthropicMessagesImporter.detect(name, head), name);
    }
  });

  it("stays at or below 0.2 on every agent format in the MANIFEST (tau-bench, mini-swe-agent, SWE-agent, OpenHands, Claude Code…)", async () => {
    for (const row of manifest) {
      assert.ok(openaiChatImporter.detect(row.path, (await sourceFromFile(row.absolutePath, row.path)).head) <= 0.2, row.path);
    }
  });

  it("scores Responses and Anthropic fixtures below 0.5", async () => {
    for (const dir of ["openai-responses", "anthropic-messages"]) {
      for (const name of readdirSync(resolve(FIXTURES, dir))) {
        const { head } = await sourceFromFile(resolve(FIXTURES, dir, name), name);
        assert.ok(openaiChatImporter.detect(name, head) < 0.5, `${dir}/${name}`);
      }
    }
  });

  it("recognises a head cut mid-document at HEAD_BYTES", () => {
    const big = JSON.stringify({
      model: "gpt-4o",
      messages: [
        { role: "user", content: "x".repeat(HEAD_BYTES) },
        { role: "tool", tool_call_id: "c", content: "" },
      ],
    });
    assert.ok(openaiChatImporter.detect("big.json", sourceFromText("big.json", big).head) >= 0.5);
  });
});

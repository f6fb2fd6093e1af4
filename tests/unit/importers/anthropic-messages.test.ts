import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { resolve } from "node:path";
import { describe, it } from "node:test";
import { anthropicMessagesImporter } from "../../../lib/trace/importers/anthropic-messages";
import { openaiChatImporter } from "../../../lib/trace/importers/openai-chat";
import { openaiResponsesImporter } from "../../../lib/trace/importers/openai-responses";
import type { ParseIssue, Session } from "../../../lib/trace/model";
import { sourceFromText } from "../../../lib/trace/source";
import { sourceFromFile } from "../../../server/trace/files/file-source";
import { readManifest } from "../../helpers/traces";

const FIXTURES = resolve(__dirname, "../../fixtures");
const fixture = (name: string) => resolve(FIXTURES, "anthropic-messages", name);
const parseFixture = async (name: string) => anthropicMessagesImporter.parse(await sourceFromFile(fixture(name), name));
const parseJson = (value: unknown) => anthropicMessagesImporter.parse(sourceFromText("anthropic.json", JSON.stringify(value, null, 2)));
const located = (issues: ParseIssue[]) => issues.map((i) => [i.line, i.field, i.severity]);
const rolesOf = (session: Session | undefined) => session?.messages.map((m) => m.role);

describe("anthropic_messages: accepted shapes", () => {
  it("a request: system blocks, thinking, tool_use ↔ tool_result, image and document placeholders", async () => {
    const { sessions, issues } = await parseFixture("request.json");
    assert.deepEqual(issues, []);
    const session = sessions[0]!;
    assert.equal(session.format, "anthropic_messages");
    assert.deepEqual(rolesOf(session), ["system", "user", "assistant", "tool", "user", "assistant", "tool"]);
    assert.deepEqual(session.messages[1]!.parts, [
      { type: "text", text: "Why is the API slow? Screenshot attached." },
      { type: "image", mediaType: "image/png", bytes: 16 },
      { type: "other", kind: "document", text: "runbook.pdf" },
    ]);
    assert.deepEqual(session.messages[2]!.parts, [
      { type: "reasoning", text: "Check latency metrics first." },
      { type: "text", text: "Let me look at p99 latency." },
      { type: "tool_call", id: "toolu_lat", name: "query_metrics", arguments: '{"metric":"p99","window":"1h"}' },
    ]);
    assert.deepEqual(
      session.messages[3]!.parts,
      [{ type: "tool_result", callId: "toolu_lat", name: "query_metrics", content: "p99=2.4s\n[image]" }],
      "tool_result blocks become a tool message",
    );
    assert.deepEqual(session.messages[4]!.parts, [{ type: "text", text: "Also check the DB." }], "the text beside the results stays a user message");
    assert.deepEqual(session.messages[6]!.parts, [{ type: "tool_result", callId: "toolu_db", name: "query_metrics", content: "timeout", isError: true }]);
    assert.deepEqual(session.models, ["claude-sonnet-4-5"]);
  });

  it("{request, response}: the response is the last assistant turn with model and usage", async () => {
    const { sessions, issues } = await parseFixture("pair.json");
    assert.deepEqual(issues, []);
    const last = sessions[0]!.messages.at(-1)!;
    assert.equal(last.role, "assistant");
    assert.deepEqual(last.parts, [{ type: "text", text: "The database is saturated; the API waits on it." }]);
    assert.equal(last.model, "claude-sonnet-4-5-20250929");
    assert.deepEqual(last.usage, { inputTokens: 410, outputTokens: 18, cachedInputTokens: 300, cacheWriteTokens: 50 });
  });

  it("a response alone imports as one assistant message", async () => {
    const { sessions, issues } = await parseFixture("response.json");
    assert.deepEqual(issues, []);
    assert.deepEqual(rolesOf(sessions[0]), ["assistant"]);
  });

  it("JSONL of requests and pairs, a bare array of messages, and a document array of pairs", async () => {
    const { sessions } = await parseFixture("exchanges.jsonl");
    assert.deepEqual(
      sessions.map((s) => s.title),
      ["2+2?", "Capital of Peru?", "123"],
    );
    assert.deepEqual(rolesOf(sessions[0]), ["system", "user"]);
    assert.deepEqual(sessions[1]!.messages[1]!.usage, { inputTokens: 12, outputTokens: 3 });
    const bare = await parseJson([
      { role: "user", content: "hi" },
      { role: "assistant", content: [{ type: "text", text: "hello" }] },
    ]);
    assert.deepEqual(rolesOf(bare.sessions[0]), ["user", "assistant"]);
    const pairs = await parseJson([{ request: { messages: [{ role: "user", content: "a" }] } }, { request: { messages: [{ role: "user", content: "b" }] } }]);
    assert.deepEqual(
      pairs.sessions.map((s) => s.title),
      ["a", "b"],
    );
  });
});

describe("anthropic_messages: bad input gives located issues", () => {
  it("line 3 is cut and line 4 has a missing role, a system role, wrong types and id-less tool blocks", async () => {
    const { sessions, issues } = await parseFixture("exchanges.jsonl");
    assert.deepEqual(located(issues), [
      [3, undefined, "error"],
      [4, "messages[0].role", "error"],
      [4, "messages[1].role", "error"],
      [4, "messages[2].content", "error"],
      [4, "messages[3].content[0].id", "error"],
      [4, "messages[3].content[1]", "error"],
      [4, "messages[4].content[0].tool_use_id", "error"],
    ]);
    assert.equal(issues.find((i) => i.field === "messages[1].role")?.expected, "user | assistant");
    assert.deepEqual(rolesOf(sessions[2]), ["user", "assistant", "tool"], "valid messages on the bad line still import");
    const orphan = sessions[2]!.messages[2]!.parts[0];
    assert.ok(orphan?.type === "tool_result" && orphan.orphan);
  });

  it("an API error response and a request whose messages is not an array", async () => {
    const error = await parseJson({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } });
    assert.deepEqual(located(error.issues), [[1, undefined, "error"]]);
    assert.match(error.issues[0]!.message, /Overloaded/);
    assert.deepEqual(located((await parseJson({ model: "claude", messages: {} })).issues), [[3, "messages", "error"]]);
  });
});

describe("anthropic_messages: detection", () => {
  it("scores its fixtures at least 0.8 and above the other message formats", async () => {
    for (const name of readdirSync(resolve(FIXTURES, "anthropic-messages"))) {
      const { head } = await sourceFromFile(fixture(name), name);
      const score = anthropicMessagesImporter.detect(name, head);
      assert.ok(score >= 0.8, name);
      assert.ok(score > openaiChatImporter.detect(name, head) && score > openaiResponsesImporter.detect(name, head), name);
    }
  });

  it("stays at or below 0.2 on every agent format in the MANIFEST, Claude Code included", async () => {
    const rows = readManifest();
    assert.ok(rows.some((r) => r.format === "claude_code_jsonl"));
    for (const row of rows) {
      assert.ok(anthropicMessagesImporter.detect(row.path, (await sourceFromFile(row.absolutePath, row.path)).head) <= 0.2, row.path);
    }
  });

  it("a plain request with system and max_tokens outranks the Chat Completions reading", () => {
    const head = '{"model": "claude-haiku-4-5", "max_tokens": 64, "system": "x", "messages": [{"role": "user", "content": "hi"}]}';
    assert.ok(anthropicMessagesImporter.detect("req.json", head) > openaiChatImporter.detect("req.json", head));
  });

  it("a Chat Completions request that merely names a Claude model stays with openai_chat", () => {
    const head = '{"model": "claude-3-5-sonnet", "messages": [{"role": "system", "content": "be brief"}, {"role": "user", "content": "hi"}]}';
    assert.ok(openaiChatImporter.detect("req.json", head) > anthropicMessagesImporter.detect("req.json", head));
  });
});

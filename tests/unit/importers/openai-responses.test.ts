import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { resolve } from "node:path";
import { describe, it } from "node:test";
import { anthropicMessagesImporter } from "../../../lib/trace/importers/anthropic-messages";
import { openaiChatImporter } from "../../../lib/trace/importers/openai-chat";
import { openaiResponsesImporter } from "../../../lib/trace/importers/openai-responses";
import type { ParseIssue } from "../../../lib/trace/model";
import { sourceFromText } from "../../../lib/trace/source";
import { sourceFromFile } from "../../../server/trace/files/file-source";
import { readManifest } from "../../helpers/traces";

const FIXTURES = resolve(__dirname, "../../fixtures");
const fixture = (name: string) => resolve(FIXTURES, "openai-responses", name);
const parseFixture = async (name: string) => openaiResponsesImporter.parse(await sourceFromFile(fixture(name), name));
const parseJson = (value: unknown) => openaiResponsesImporter.parse(sourceFromText("responses.json", JSON.stringify(value, null, 2)));
const located = (issues: ParseIssue[]) => issues.map((i) => [i.line, i.field, i.severity]);

describe("openai_responses: accepted shapes", () => {
  it("an array of items: shorthand messages, one merged assistant turn, call ↔ output, image placeholder", async () => {
    const { sessions, issues } = await parseFixture("items-array.json");
    assert.deepEqual(issues, []);
    const session = sessions[0]!;
    assert.equal(session.format, "openai_responses");
    assert.deepEqual(
      session.messages.map((m) => m.role),
      ["system", "user", "assistant", "tool", "assistant"],
    );
    assert.deepEqual(session.messages[1]!.parts, [{ type: "text", text: "Is this diff safe?" }, { type: "image" }]);
    assert.deepEqual(
      session.messages[2]!.parts,
      [
        { type: "reasoning", text: "Need to read the file first." },
        { type: "tool_call", id: "call_read", name: "read_file", arguments: '{"path":"src/db.ts"}' },
      ],
      "reasoning and function_call items form one assistant turn",
    );
    assert.deepEqual(session.messages[3]!.parts, [
      { type: "tool_result", callId: "call_read", name: "read_file", content: "export const pool = createPool();" },
    ]);
    assert.deepEqual(session.messages[4]!.parts, [{ type: "text", text: "Yes, the pool is created once." }]);
    assert.deepEqual(
      session.messages.map((m) => m.source.line),
      [2, 6, 20, 37, 42],
      "each message points at the `{` of its first item",
    );
  });

  it("a request merged with its response: instructions, input items, then output with model and usage", async () => {
    const { sessions, issues } = await parseFixture("request-response.json");
    assert.deepEqual(issues, []);
    const session = sessions[0]!;
    assert.deepEqual(
      session.messages.map((m) => m.role),
      ["system", "user", "assistant", "tool", "assistant"],
    );
    assert.deepEqual(session.messages[0]!.parts, [{ type: "text", text: "Be brief." }]);
    const output = session.messages[4]!;
    assert.deepEqual(
      output.parts,
      [{ type: "tool_call", id: "call_cat", name: "shell", arguments: '{"cmd":"cat README.md"}' }],
      "an empty reasoning summary adds nothing",
    );
    assert.equal(output.model, "o4-mini");
    assert.deepEqual(output.usage, { inputTokens: 220, outputTokens: 35, cachedInputTokens: 128 });
    assert.equal(session.messages[2]!.model, undefined, "input turns carry no model");
  });

  it("JSONL of exchanges: string input, a response output, and a document array of exchanges", async () => {
    const { sessions } = await parseFixture("exchanges.jsonl");
    assert.deepEqual(
      sessions[0]!.messages.map((m) => [m.role, m.parts[0]]),
      [
        ["user", { type: "text", text: "Say hi" }],
        ["assistant", { type: "text", text: "Hi!" }],
      ],
    );
    const many = await parseJson([{ input: "a" }, { input: "b", output: [] }]);
    assert.deepEqual(
      many.sessions.map((s) => s.title),
      ["a", "b"],
    );
  });

  it("other *_call items become tool calls named after the tool type", async () => {
    const { sessions } = await parseFixture("exchanges.jsonl");
    const call = sessions[1]!.messages.find((m) => m.role === "assistant")!.parts[0];
    assert.deepEqual(call, { type: "tool_call", id: "ws_1", name: "web_search", arguments: '{"query":"tracefold"}' });
  });
});

describe("openai_responses: bad input gives located issues", () => {
  it("missing role, missing call_id, a non-object item, an unknown item type, wrong content type, a cut line", async () => {
    const { sessions, issues } = await parseFixture("exchanges.jsonl");
    assert.deepEqual(located(issues), [
      [2, "input[0].role", "error"],
      [2, "input[1].call_id", "error"],
      [2, "input[2]", "error"],
      [2, "input[4].type", "warning"],
      [2, "input[5].content", "error"],
      [3, undefined, "error"],
    ]);
    assert.equal(sessions.length, 2, "the cut third line is skipped, the others import");
    const orphan = sessions[1]!.messages[0]!.parts[0];
    assert.ok(orphan?.type === "tool_result" && orphan.orphan, "an output without call_id is kept, flagged orphan");
  });

  it("an object with neither input nor output, and input of the wrong type", async () => {
    assert.deepEqual(located((await parseJson({ model: "x" })).issues), [[1, "input", "error"]]);
    assert.deepEqual(located((await parseJson({ input: 5 })).issues), [[2, "input", "error"]]);
  });
});

describe("openai_responses: detection", () => {
  it("scores its fixtures at least 0.8 and above the other message formats", async () => {
    for (const name of readdirSync(resolve(FIXTURES, "openai-responses"))) {
      const { head } = await sourceFromFile(fixture(name), name);
      const score = openaiResponsesImporter.detect(name, head);
      assert.ok(score >= 0.8, name);
      assert.ok(score > openaiChatImporter.detect(name, head) && score > anthropicMessagesImporter.detect(name, head), name);
    }
  });

  it("stays at or below 0.2 on every agent format in the MANIFEST and on the Codex rollout fixture", async () => {
    for (const row of readManifest()) {
      assert.ok(openaiResponsesImporter.detect(row.path, (await sourceFromFile(row.absolutePath, row.path)).head) <= 0.2, row.path);
    }
    const codex = resolve(FIXTURES, "codex/rollout-sample.jsonl");
    assert.ok(openaiResponsesImporter.detect("rollout.jsonl", (await sourceFromFile(codex)).head) <= 0.2);
  });

  it("scores plain Chat Completions and Anthropic fixtures below 0.5", async () => {
    for (const dir of ["openai-chat", "anthropic-messages"]) {
      for (const name of readdirSync(resolve(FIXTURES, dir))) {
        assert.ok(openaiResponsesImporter.detect(name, (await sourceFromFile(resolve(FIXTURES, dir, name), name)).head) < 0.5, `${dir}/${name}`);
      }
    }
  });
});

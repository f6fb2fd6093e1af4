import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, it } from "node:test";
import { otelGenaiImporter } from "../../../lib/trace/importers/otel-genai";
import type { Message, ParseIssue, Part, Session } from "../../../lib/trace/model";
import { sourceFromText } from "../../../lib/trace/source";
import { sourceFromFile } from "../../../server/trace/files/file-source";
import { readManifest } from "../../helpers/traces";

const manifest = readManifest();
const rows = manifest.filter((row) => row.format === "otel_genai_spans");
const FIXTURES = resolve(__dirname, "../../fixtures/otel");
const errorsOf = (issues: ParseIssue[]) => issues.filter((i) => i.severity === "error");
const partsOf = (sessions: Session[], type: Part["type"]) => sessions.flatMap((s) => s.messages.flatMap((m) => m.parts.filter((p) => p.type === type)));
const rolesOf = (session: Session) => session.messages.map((m) => m.role);
const parseFixture = async (name: string) => otelGenaiImporter.parse(await sourceFromFile(resolve(FIXTURES, name), name));
const parseText = (value: unknown) => otelGenaiImporter.parse(sourceFromText("spans.json", JSON.stringify(value, null, 2)));

describe("otel_genai_spans: real any-agent traces match the MANIFEST", () => {
  it("has otel_genai_spans rows to check", () => assert.ok(rows.length >= 4));

  for (const row of rows) {
    it(row.path, async () => {
      const { sessions, issues } = await otelGenaiImporter.parse(await sourceFromFile(row.absolutePath, row.path));
      assert.deepEqual(errorsOf(issues), []);
      assert.equal(sessions.length, row.sessions);
      const messages = sessions.flatMap((s) => s.messages);
      // The MANIFEST counts one message per call_llm span (the LLM's outputs); the importer also
      // keeps the prompt (system + user from gen_ai.input.messages) and one tool message per
      // execute_tool span, so the total is those plus the MANIFEST count.
      assert.equal(messages.filter((m) => m.role === "assistant").length, row.messages, "assistant messages = call_llm spans");
      assert.equal(messages.length, row.messages + 2 + row.toolResults, "prompt + LLM outputs + tool results");
      assert.equal(partsOf(sessions, "tool_call").length, row.toolCalls, "tool_call parts");
      assert.equal(partsOf(sessions, "tool_result").length, row.toolResults, "tool_result parts");
      assert.ok(
        partsOf(sessions, "tool_result").every((p) => p.type === "tool_result" && !p.orphan),
        "every result pairs with its call",
      );
      assert.deepEqual([...new Set(sessions.flatMap((s) => s.models))].sort(), [...row.models].sort());
    });
  }

  it("OPENAI_trace.json: order, synthetic ids, usage, ns timestamps and span lines", async () => {
    const row = rows.find((r) => r.path.endsWith("OPENAI_trace.json"))!;
    const lines = readFileSync(row.absolutePath, "utf8").split("\n");
    const [session] = (await otelGenaiImporter.parse(await sourceFromFile(row.absolutePath, row.path))).sessions;
    assert.ok(session);
    assert.deepEqual(rolesOf(session), ["system", "user", "assistant", "tool", "assistant", "tool", "assistant"]);
    const [, , firstCall, firstResult, , secondResult] = session.messages as Message[];
    assert.deepEqual(firstCall!.parts, [{ type: "tool_call", id: "call_1", name: "get_current_time", arguments: '{"timezone": "America/New_York"}' }]);
    assert.deepEqual(firstCall!.usage, { inputTokens: 269, outputTokens: 16 });
    assert.equal(firstCall!.model, "mistral/mistral-small-latest");
    assert.equal(firstCall!.timestamp, "2025-09-16T12:43:13.210Z", "start_time 1758026593210770000 ns");
    assert.deepEqual(firstResult!.parts[0], {
      type: "tool_result",
      callId: "call_1",
      name: "get_current_time",
      content: '{\n  "timezone": "America/New_York",\n  "datetime": "2025-09-16T08:43:13-04:00",\n  "is_dst": true\n}',
    });
    assert.equal(secondResult!.parts[0]!.type === "tool_result" && secondResult!.parts[0]!.callId, "call_2");
    assert.deepEqual(session.meta, { agent: "any_agent" });
    for (const message of session.messages) assert.equal(lines[message.source.line - 1]!.trim(), "{", `message ${message.index} points at its span`);
  });

  it("SMOLAGENTS_trace.json: the final_answer tool call is paired with its execute_tool span", async () => {
    const row = rows.find((r) => r.path.endsWith("SMOLAGENTS_trace.json"))!;
    const [session] = (await otelGenaiImporter.parse(await sourceFromFile(row.absolutePath, row.path))).sessions;
    const last = session!.messages.at(-1)!;
    assert.equal(last.role, "tool");
    assert.equal(last.parts[0]!.type === "tool_result" && last.parts[0]!.name, "final_answer");
  });
});

describe("otel_genai_spans: semantic-convention shapes", () => {
  it("OTLP JSON with parts messages: history repeated per span is added once", async () => {
    const { sessions, issues } = await parseFixture("semconv-parts-otlp.json");
    assert.deepEqual(issues, []);
    const [session] = sessions;
    assert.ok(session);
    assert.equal(session.id, "5b8efff798038103d269b633813fc60c");
    assert.deepEqual(session.meta, { agent: "weather-bot" });
    assert.deepEqual(rolesOf(session), ["system", "user", "assistant", "tool", "assistant", "user", "assistant"]);
    const [system, , ask, result, answer, photo, final] = session.messages as Message[];
    assert.deepEqual(system!.parts, [{ type: "text", text: "You are a terse weather assistant." }]);
    assert.deepEqual(ask!.parts, [
      { type: "text", text: "Let me check the forecast." },
      { type: "tool_call", id: "call_wx1", name: "get_forecast", arguments: '{"city":"Lyon","day":"tomorrow"}' },
    ]);
    assert.deepEqual(result!.parts, [{ type: "tool_result", callId: "call_wx1", name: "get_forecast", content: '{"rain_mm": 6, "chance": 0.8}' }]);
    assert.deepEqual(answer!.usage, { inputTokens: 170, outputTokens: 18, cachedInputTokens: 100 });
    assert.deepEqual(
      photo!.parts.map((p) => p.type),
      ["text", "image"],
    );
    assert.deepEqual(
      final!.parts.map((p) => p.type),
      ["reasoning", "text"],
    );
    assert.equal(system!.timestamp, "2025-01-01T10:00:00.010Z", "startTimeUnixNano digit strings keep ms precision");
    assert.deepEqual(session.models, ["gpt-4.1-mini"]);
  });

  it("old event style: message events, gen_ai.choice outputs and ISO span times", async () => {
    const { sessions, issues } = await parseFixture("event-style.json");
    assert.deepEqual(issues, []);
    const [session] = sessions;
    assert.ok(session);
    assert.equal(session.id, "0x4bf92f3577b34da6a3ce929d0e0e4736");
    assert.deepEqual(rolesOf(session), ["system", "user", "assistant", "tool", "assistant"]);
    assert.deepEqual(session.messages[2]!.parts, [{ type: "tool_call", id: "toolu_01", name: "calculator", arguments: '{"expression": "17*23"}' }]);
    assert.deepEqual(session.messages[3]!.parts, [{ type: "tool_result", callId: "toolu_01", name: "calculator", content: "391" }]);
    assert.deepEqual(session.messages[4]!.parts, [{ type: "text", text: "17 × 23 = 391." }]);
    assert.equal(session.messages[2]!.timestamp, "2025-02-03T09:00:01.200Z", "choice event time");
    assert.deepEqual(session.messages[4]!.usage, { inputTokens: 91, outputTokens: 12 });
  });

  it("groups spans by trace id: two traces in one file are two sessions", async () => {
    const span = (trace: string, text: string) => ({
      traceId: trace,
      startTimeUnixNano: "1700000000000000000",
      attributes: [
        { key: "gen_ai.operation.name", value: { stringValue: "chat" } },
        { key: "gen_ai.input.messages", value: { stringValue: JSON.stringify([{ role: "user", parts: [{ type: "text", content: text }] }]) } },
      ],
    });
    const { sessions } = await parseText({ resourceSpans: [{ scopeSpans: [{ spans: [span("aa", "first"), span("bb", "second")] }] }] });
    assert.deepEqual(
      sessions.map((s) => [s.id, s.title]),
      [
        ["aa", "first"],
        ["bb", "second"],
      ],
    );
  });
});

describe("otel_genai_spans: bad input is reported, not thrown", () => {
  it("invalid gen_ai.input.messages JSON is located at its span and attribute", async () => {
    const { sessions, issues } = await parseText({
      spans: [
        {
          start_time: 1,
          attributes: { "gen_ai.operation.name": "call_llm", "gen_ai.input.messages": '[{"role": "user", "content": "cut', "gen_ai.output": "hi" },
        },
      ],
    });
    const [issue] = errorsOf(issues);
    assert.equal(issue?.field, "spans[0].attributes.gen_ai.input.messages");
    assert.equal(issue?.line, 3, "the line where spans[0] starts");
    assert.deepEqual(rolesOf(sessions[0]!), ["assistant"], "the output still imports");
  });

  it("an execute_tool span without a matching call becomes an orphan result with a warning", async () => {
    const { sessions, issues } = await parseText({
      spans: [{ start_time: 5, attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "grep", "gen_ai.output": "3 hits" } }],
    });
    assert.equal(issues[0]?.severity, "warning");
    assert.equal(issues[0]?.field, "spans[0]");
    const part = sessions[0]!.messages[0]!.parts[0]!;
    assert.ok(part.type === "tool_result" && part.orphan && part.name === "grep");
  });

  it("a JSON value that is not a span dump gives one located error", async () => {
    const { sessions, issues } = await parseText({ hello: "world" });
    assert.deepEqual(sessions, []);
    assert.equal(errorsOf(issues).length, 1);
    assert.match(errorsOf(issues)[0]!.expected ?? "", /spans/);
  });

  it("a truncated file reports the JSON error line", async () => {
    const { issues } = await otelGenaiImporter.parse(sourceFromText("cut.json", '{\n  "spans": [\n    {"name": "call_llm"'));
    assert.equal(errorsOf(issues)[0]?.line, 3);
  });
});

describe("otel_genai_spans: detection", () => {
  it("scores its own files and fixtures at least 0.9", async () => {
    for (const row of rows) assert.ok(otelGenaiImporter.detect(row.path, (await sourceFromFile(row.absolutePath, row.path)).head) >= 0.9, row.path);
    for (const name of ["semconv-parts-otlp.json", "event-style.json"]) {
      assert.ok(otelGenaiImporter.detect(name, (await sourceFromFile(resolve(FIXTURES, name), name)).head) >= 0.9, name);
    }
  });

  it("scores every other format's real files below 0.3", async () => {
    for (const row of manifest.filter((r) => r.format !== "otel_genai_spans")) {
      assert.ok(otelGenaiImporter.detect(row.path, (await sourceFromFile(row.absolutePath, row.path)).head) < 0.3, row.path);
    }
  });
});

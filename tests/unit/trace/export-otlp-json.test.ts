import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { toOtlpJson, type OtlpSpan } from "../../../lib/trace/export-otlp-json";
import { otlpChatSpanId, otlpSpanIdAtCut, otlpTraceId } from "../../../lib/trace/export-otlp-ids";
import { detectFormat, parseTrace } from "../../../lib/trace/parse-trace";
import type { Message, Session } from "../../../lib/trace/model";
import { sourceFromText } from "../../../lib/trace/source";
import { loadEveryTrace } from "../../helpers/load-traces";

/**
 * The OTLP JSON export (issue 15, item 6) read back by Tracefold's own OTel importer: over every
 * real trace, the same conversation comes back. Compared per "unit" — a message split the way the
 * GenAI convention must split it (tool results into `tool` messages, the rest under the message's
 * role, a tool message's own text under `user`): role, texts, reasoning, tool calls (id, name,
 * arguments), each result's call id, content and error flag, image and other-part counts. What the
 * comparison leaves out is the documented loss (lib/trace/export-otlp-json.ts): grouping, part
 * order inside a message, timestamps, compactions, meta.
 */
type Unit = unknown[];

function units(messages: Message[]): Unit[] {
  const out: Unit[] = [];
  for (const m of messages) {
    const ownRole = m.role === "tool" ? "user" : m.role;
    let run: Message["parts"] = [];
    const flush = () => {
      if (run.length || !m.parts.length) out.push(describeRun(ownRole, run));
      run = [];
    };
    for (const part of m.parts) {
      if (part.type === "tool_result") {
        flush();
        out.push(["tool", part.callId, part.content, part.isError === true]);
      } else run.push(part);
    }
    if (run.length || !m.parts.length) flush();
  }
  return out;
}

function describeRun(role: string, parts: Message["parts"]): Unit {
  const texts = parts.flatMap((p) => (p.type === "text" ? [p.text] : []));
  const reasoning = parts.flatMap((p) => (p.type === "reasoning" ? [p.text] : [])).join("\n");
  const calls = parts.flatMap((p) => (p.type === "tool_call" ? [[p.id, p.name, p.arguments]] : []));
  return [
    role,
    texts,
    reasoning,
    calls,
    parts.filter((p) => p.type === "image").length,
    parts.filter((p) => p.type === "other").map((p) => (p.type === "other" ? p.kind : "")),
  ];
}

async function reimport(session: Session, seed = "seed-1"): Promise<Session[]> {
  const text = JSON.stringify(toOtlpJson(session, { seed }));
  const source = sourceFromText("export.otlp.json", text);
  assert.equal(detectFormat(source.name, source.head)?.format, "otel_genai_spans", "the export is detected as OTel GenAI spans");
  const parsed = await parseTrace(source);
  assert.deepEqual(
    parsed.issues.filter((i) => i.severity === "error"),
    [],
  );
  return parsed.sessions;
}

describe("OTLP JSON export: round trip through the OTel GenAI importer", () => {
  it("every real trace comes back with the same roles, texts, tool calls and results", async () => {
    let sessions = 0;
    let messages = 0;
    for (const { entry, sessions: analyzed } of await loadEveryTrace()) {
      for (const { session } of analyzed) {
        if (!session.messages.length) continue;
        const back = await reimport(session);
        assert.equal(back.length, 1, `${entry.path} ${session.id}: one session`);
        assert.deepEqual(units(back[0]!.messages), units(session.messages), `${entry.path} ${session.id}`);
        const usage = (s: Message[]) => s.filter((m) => m.role === "assistant").map((m) => [m.model ?? null, m.usage ?? null]);
        assert.deepEqual(usage(back[0]!.messages), usage(session.messages), `${entry.path} ${session.id}: model and usage per call`);
        sessions++;
        messages += session.messages.length;
      }
    }
    assert.ok(sessions > 100, `only ${sessions} sessions`);
    console.log(`round trip: ${sessions} sessions, ${messages} messages`);
  });
});

describe("OTLP JSON export: shape", () => {
  const source = { file: "t.json", line: 1 };
  const session: Session = {
    id: "conv-7",
    format: "openai_chat",
    title: "Weather",
    models: ["gpt-4.1"],
    compactions: [],
    meta: { agent: "weather-bot" },
    messages: [
      { index: 0, role: "user", parts: [{ type: "text", text: "Paris?" }], source, timestamp: "2025-01-01T00:00:05.000Z" },
      {
        index: 1,
        role: "assistant",
        parts: [{ type: "tool_call", id: "c1", name: "weather", arguments: '{"city":"Paris"}' }],
        source,
        model: "gpt-4.1",
        usage: { inputTokens: 12, outputTokens: 3 },
      },
      { index: 2, role: "tool", parts: [{ type: "tool_result", callId: "c1", name: "weather", content: "boom", isError: true }], source },
      { index: 3, role: "assistant", parts: [{ type: "text", text: "Sorry." }], source, model: "gpt-4.1" },
      { index: 4, role: "user", parts: [{ type: "text", text: "Paris?" }], source },
    ],
  };
  const spans = () => toOtlpJson(session, { seed: "db-id-1" }).resourceSpans[0]!.scopeSpans[0]!.spans;
  const attr = (span: OtlpSpan, key: string) => span.attributes.find((a) => a.key === key)?.value;

  it("an invoke_agent root, a chat span per call, an execute_tool span per result, an input-only tail", () => {
    const all = spans();
    assert.deepEqual(
      all.map((s) => [s.name, attr(s, "gen_ai.operation.name")]),
      [
        ["invoke_agent weather-bot", { stringValue: "invoke_agent" }],
        ["chat gpt-4.1", { stringValue: "chat" }],
        ["execute_tool weather", { stringValue: "execute_tool" }],
        ["chat gpt-4.1", { stringValue: "chat" }],
        ["chat", { stringValue: "chat" }],
      ],
    );
    assert.ok(all.every((s) => s.traceId === otlpTraceId("db-id-1") && /^[0-9a-f]{32}$/.test(s.traceId)));
    assert.ok(all.every((s) => /^[0-9a-f]{16}$/.test(s.spanId)));
    assert.equal(new Set(all.map((s) => s.spanId)).size, all.length, "span ids are unique");
    assert.ok(all.slice(1).every((s) => s.parentSpanId === all[0]!.spanId));
    assert.ok(
      all.every(
        (s) =>
          attr(s, "gen_ai.conversation.id")?.hasOwnProperty("stringValue") &&
          (attr(s, "gen_ai.conversation.id") as { stringValue: string }).stringValue === "conv-7",
      ),
    );
    assert.equal(all[1]!.spanId, otlpChatSpanId("db-id-1", 1));
    assert.deepEqual(attr(all[1]!, "gen_ai.usage.input_tokens"), { intValue: "12" });
    assert.deepEqual(all[2]!.status, { code: 2 }, "an error result is an error span");
  });

  it("messages are the current convention's role + parts JSON, arguments kept as recorded", () => {
    const chat = spans()[1]!;
    assert.deepEqual(JSON.parse((attr(chat, "gen_ai.input.messages") as { stringValue: string }).stringValue), [
      { role: "user", parts: [{ type: "text", content: "Paris?" }] },
    ]);
    assert.deepEqual(JSON.parse((attr(chat, "gen_ai.output.messages") as { stringValue: string }).stringValue), [
      { role: "assistant", parts: [{ type: "tool_call", id: "c1", name: "weather", arguments: '{"city":"Paris"}' }], finish_reason: "tool_call" },
    ]);
    const second = spans()[3]!;
    assert.deepEqual(JSON.parse((attr(second, "gen_ai.input.messages") as { stringValue: string }).stringValue), [
      { role: "tool", parts: [{ type: "tool_call_response", id: "c1", response: "boom" }] },
    ]);
  });

  it("is deterministic, and another seed gives other ids", () => {
    assert.deepEqual(toOtlpJson(session, { seed: "db-id-1" }), toOtlpJson(session, { seed: "db-id-1" }));
    assert.notEqual(toOtlpJson(session, { seed: "db-id-2" }).resourceSpans[0]!.scopeSpans[0]!.spans[0]!.traceId, otlpTraceId("db-id-1"));
  });

  it("span start times increase strictly, from the message timestamps", () => {
    const starts = spans()
      .slice(1)
      .map((s) => BigInt(s.startTimeUnixNano));
    for (let i = 1; i < starts.length; i++) assert.ok(starts[i]! > starts[i - 1]!, `span ${i} starts after span ${i - 1}`);
    assert.equal(starts[0], BigInt(Date.parse("2025-01-01T00:00:05.000Z") + 1) * 1_000_000n, "the first call follows the first message");
  });

  it("a later user message equal to the first one survives (the importer's repeated-history rule)", async () => {
    const [back] = await reimport(session);
    assert.deepEqual(units(back!.messages), units(session.messages));
    assert.equal(back!.messages.length, 5);
  });

  it("a cut maps to the chat span of the first assistant message at or after it, past the end to the root", () => {
    assert.equal(otlpSpanIdAtCut(session, 0, "s"), otlpChatSpanId("s", 1));
    assert.equal(otlpSpanIdAtCut(session, 2, "s"), otlpChatSpanId("s", 3));
    assert.equal(otlpSpanIdAtCut(session, 4, "s"), spansFor("s")[0]!.spanId);
  });
  const spansFor = (seed: string) => toOtlpJson(session, { seed }).resourceSpans[0]!.scopeSpans[0]!.spans;
});

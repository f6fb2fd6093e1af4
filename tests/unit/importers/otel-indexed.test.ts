import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildOtelSession } from "../../../lib/trace/importers/otel-genai";
import { otlpRequest, otlpSpan } from "../../helpers/otlp-spans";

type Attr = { key: string; value: { stringValue?: string; intValue?: string } };
const attrs = (o: Record<string, string | number>): Attr[] =>
  Object.entries(o).map(([key, v]) => ({ key, value: typeof v === "number" ? { intValue: String(v) } : { stringValue: v } }));
const T = "4".repeat(32);
const sessionOf = (spans: unknown[]) => buildOtelSession([otlpRequest(spans)], { id: "s", file: "otlp:s" });
const summary = (spans: unknown[]) =>
  sessionOf(spans).session.messages.map((m) => ({
    role: m.role,
    parts: m.parts.map((p) =>
      p.type === "text" ? p.text : p.type === "tool_call" ? `call ${p.name}(${p.id})` : p.type === "tool_result" ? `result ${p.callId}: ${p.content}` : p.type,
    ),
  }));

describe("OpenLLMetry indexed gen_ai.prompt.N / gen_ai.completion.N", () => {
  it("reads roles, contents and tool calls in index order (10 after 9)", () => {
    const prompt: Record<string, string> = {};
    for (let n = 0; n <= 10; n++) Object.assign(prompt, { [`gen_ai.prompt.${n}.role`]: "user", [`gen_ai.prompt.${n}.content`]: `q${n}` });
    const span = otlpSpan(
      T,
      "d".repeat(16),
      0,
      attrs({
        ...prompt,
        "gen_ai.completion.0.role": "assistant",
        "gen_ai.completion.0.tool_calls.0.id": "c1",
        "gen_ai.completion.0.tool_calls.0.name": "search",
        "gen_ai.completion.0.tool_calls.0.arguments": '{"q":"x"}',
        "gen_ai.usage.prompt_tokens": 12,
      }),
    );
    const messages = summary([span]);
    assert.deepEqual(
      messages.map((m) => m.parts[0]),
      [...Array.from({ length: 11 }, (_, n) => `q${n}`), "call search(c1)"],
    );
    assert.equal(sessionOf([span]).session.messages.at(-1)!.usage?.inputTokens, 12);
  });

  it("a tool message answers its call, and the next span's repeated history is not added twice", () => {
    const first = otlpSpan(
      T,
      "1".repeat(16),
      0,
      attrs({
        "gen_ai.prompt.0.role": "user",
        "gen_ai.prompt.0.content": "hi",
        "gen_ai.completion.0.role": "assistant",
        "gen_ai.completion.0.tool_calls.0.id": "c1",
        "gen_ai.completion.0.tool_calls.0.name": "ls",
        "gen_ai.completion.0.tool_calls.0.arguments": "{}",
      }),
    );
    const second = otlpSpan(
      T,
      "2".repeat(16),
      1,
      attrs({
        "gen_ai.prompt.0.role": "user",
        "gen_ai.prompt.0.content": "hi",
        "gen_ai.prompt.1.role": "assistant",
        "gen_ai.prompt.1.tool_calls.0.id": "c1",
        "gen_ai.prompt.1.tool_calls.0.name": "ls",
        "gen_ai.prompt.1.tool_calls.0.arguments": "{}",
        "gen_ai.prompt.2.role": "tool",
        "gen_ai.prompt.2.tool_call_id": "c1",
        "gen_ai.prompt.2.content": "a.txt",
        "gen_ai.completion.0.role": "assistant",
        "gen_ai.completion.0.content": "one file",
      }),
    );
    assert.deepEqual(summary([first, second]), [
      { role: "user", parts: ["hi"] },
      { role: "assistant", parts: ["call ls(c1)"] },
      { role: "tool", parts: ["result c1: a.txt"] },
      { role: "assistant", parts: ["one file"] },
    ]);
  });
});

describe("OpenInference llm.input_messages.N.message.* / llm.output_messages / TOOL spans", () => {
  it("reads messages, tool calls and a TOOL span's output", () => {
    const llm = otlpSpan(
      T,
      "5".repeat(16),
      0,
      attrs({
        "openinference.span.kind": "LLM",
        "llm.model_name": "claude",
        "llm.input_messages.0.message.role": "system",
        "llm.input_messages.0.message.content": "be brief",
        "llm.input_messages.1.message.role": "user",
        "llm.input_messages.1.message.content": "list files",
        "llm.output_messages.0.message.role": "assistant",
        "llm.output_messages.0.message.tool_calls.0.tool_call.id": "t1",
        "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "ls",
        "llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments": "{}",
        "llm.token_count.completion": 7,
      }),
    );
    const tool = otlpSpan(T, "6".repeat(16), 1, attrs({ "openinference.span.kind": "TOOL", "tool.name": "ls", "output.value": "a.txt b.txt" }));
    assert.deepEqual(summary([tool, llm]), [
      { role: "system", parts: ["be brief"] },
      { role: "user", parts: ["list files"] },
      { role: "assistant", parts: ["call ls(t1)"] },
      { role: "tool", parts: ["result t1: a.txt b.txt"] },
    ]);
    const call = sessionOf([llm]).session.messages[2]!;
    assert.equal(call.model, "claude");
    assert.equal(call.usage?.outputTokens, 7);
  });
});

describe("semantic conventions' gen_ai.client.inference.operation.details event", () => {
  it("reads the messages from the event, structured (kvlist) or as JSON text", () => {
    const kv = (o: Record<string, unknown>): unknown => ({
      kvlistValue: {
        values: Object.entries(o).map(([key, v]) => ({
          key,
          value: typeof v === "string" ? { stringValue: v } : Array.isArray(v) ? { arrayValue: { values: v.map(kv) } } : kv(v as Record<string, unknown>),
        })),
      },
    });
    const input = { arrayValue: { values: [kv({ role: "user", parts: [{ type: "text", content: "ping" }] })] } };
    const span = {
      ...otlpSpan(T, "7".repeat(16), 0, attrs({ "gen_ai.operation.name": "chat" })),
      events: [
        {
          name: "gen_ai.client.inference.operation.details",
          timeUnixNano: "1750000000000000000",
          attributes: [
            { key: "gen_ai.input.messages", value: input },
            { key: "gen_ai.output.messages", value: { stringValue: JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: "pong" }] }]) } },
          ],
        },
      ],
    };
    assert.deepEqual(summary([span]), [
      { role: "user", parts: ["ping"] },
      { role: "assistant", parts: ["pong"] },
    ]);
  });
});

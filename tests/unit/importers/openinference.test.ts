import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseTrace } from "../../../lib/trace/parse-trace";
import { sourceFromText } from "../../../lib/trace/source";

/**
 * OpenInference span dumps (issue 15 item 5): what the OpenInference rules add to the shared span
 * parser — the span kind decides what is a model call, nested LLM wrappers are read once, and
 * `input.value` / `output.value` fill what the indexed attributes lack.
 */
const parts = async (doc: unknown) => {
  const parsed = await parseTrace(sourceFromText("trace.json", JSON.stringify(doc, null, 2)));
  assert.equal(parsed.format, "openinference_spans");
  return parsed.sessions[0]!.messages.map(
    (m) =>
      `${m.role}: ${m.parts.map((p) => (p.type === "text" ? p.text : p.type === "tool_call" ? `call ${p.name}${p.arguments}` : p.type === "tool_result" ? `result ${p.callId}` : p.type)).join(" | ")}`,
  );
};
const span = (id: number, parent: number | null, attributes: Record<string, unknown>) => ({
  name: "s",
  context: { trace_id: 1, span_id: id },
  parent: parent === null ? null : { trace_id: 1, span_id: parent },
  start_time: 1_000_000 * id,
  attributes,
});

describe("openinference_spans", () => {
  it("CHAIN and AGENT spans repeating the prompt are not model calls", async () => {
    const prompt = { "llm.input_messages.0.message.role": "user", "llm.input_messages.0.message.content": "hi" };
    assert.deepEqual(
      await parts({
        spans: [
          span(1, null, { "openinference.span.kind": "AGENT", ...prompt }),
          span(2, 1, { "openinference.span.kind": "CHAIN", ...prompt }),
          span(3, 2, {
            "openinference.span.kind": "LLM",
            ...prompt,
            "llm.output_messages.0.message.role": "assistant",
            "llm.output_messages.0.message.content": "hello",
          }),
        ],
      }),
      ["user: hi", "assistant: hello"],
    );
  });

  it("an LLM span wrapping another LLM span is read once (the innermost)", async () => {
    const call = { "openinference.span.kind": "LLM", "llm.output_messages.0.message.role": "assistant", "llm.output_messages.0.message.content": "once" };
    assert.deepEqual(await parts({ spans: [span(1, null, call), span(2, 1, call), span(3, 2, call)] }), ["assistant: once"]);
  });

  it("input.value opens the conversation only; output.value supplies dropped tool calls and missing arguments", async () => {
    const first = span(1, null, {
      "openinference.span.kind": "LLM",
      "input.value": JSON.stringify({
        args: [
          [
            { role: "system", content: "sys" },
            { role: "user", content: "go" },
          ],
        ],
      }),
      "llm.output_messages.0.message.role": "assistant",
      "llm.output_messages.0.message.tool_calls.0.tool_call.id": "c1",
      "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "ls",
      "output.value": JSON.stringify({ role: "assistant", tool_calls: [{ id: "c1", function: { name: "ls", arguments: '{"dir":"/"}' } }] }),
    });
    const tool = span(2, null, { "openinference.span.kind": "TOOL", "tool.name": "ls", "output.value": "a.txt" });
    const second = span(3, null, {
      "openinference.span.kind": "LLM",
      "input.value": JSON.stringify({
        args: [
          [
            { role: "user", content: "go" },
            { role: "tool-response", content: "rendered memory" },
          ],
        ],
      }),
      "llm.output_messages.0.message.role": "assistant",
      "output.value": JSON.stringify({ generations: [[{ message: { kwargs: { tool_calls: [{ id: "c2", name: "cat", args: { f: "a.txt" } }] } } }]] }),
    });
    assert.deepEqual(await parts({ spans: [first, tool, second] }), [
      "system: sys",
      "user: go",
      'assistant: call ls{"dir":"/"}',
      "tool: result c1",
      'assistant: call cat{"f":"a.txt"}',
    ]);
  });

  it("one span's bare attribute map, with multi-part contents, is a session", async () => {
    const doc = {
      "openinference.span.kind": "LLM",
      "llm.input_messages.0.message.role": "user",
      "llm.input_messages.0.message.contents.0.message_content.type": "text",
      "llm.input_messages.0.message.contents.0.message_content.text": "a",
      "llm.input_messages.0.message.contents.1.message_content.type": "image",
    };
    assert.deepEqual(await parts(doc), ["user: a | image"]);
  });
});

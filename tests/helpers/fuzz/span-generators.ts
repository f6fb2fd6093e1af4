import fc from "fast-check";
import { args, callId, chatMessage, count, iso, maybe, pretty, small, text, toolName, type Generated } from "./arbitrary-values";

/* Tracing exports: OpenTelemetry GenAI, OpenInference and OpenLLMetry spans, and Langfuse traces. */

const otelSpan = fc.record({
  name: fc.constantFrom("chat gpt-4o", "execute_tool bash", "invoke_agent"),
  context: fc.record({ trace_id: fc.constantFrom("0x1", "0x2"), span_id: fc.constantFrom("0xa1", "0xb2", "0xc3", "0xa1b2") }),
  parent_id: fc.option(fc.constant("0x00f0"), { nil: null }),
  start_time: iso,
  attributes: fc.record({
    "gen_ai.operation.name": fc.constantFrom("chat", "execute_tool", "invoke_agent"),
    "gen_ai.request.model": fc.constantFrom("gpt-4o", ""),
    "gen_ai.usage.input_tokens": count,
    "gen_ai.tool.name": toolName,
    "gen_ai.tool.call.id": callId,
    "gen_ai.input.messages": fc.oneof(
      text,
      chatMessage.map((m) => JSON.stringify([{ role: m.role, parts: [{ type: "text", content: JSON.stringify(m.content) }] }])),
    ),
    "gen_ai.output.messages": fc.constantFrom(
      "[]",
      "not json",
      '[{"role":"assistant","parts":[{"type":"tool_call","id":"call_1","name":"bash","arguments":{}}]}]',
    ),
  }),
  events: small(
    fc.record({
      name: fc.constantFrom("gen_ai.user.message", "gen_ai.choice", "gen_ai.tool.message", "other"),
      attributes: fc.record({ content: text, id: callId }),
    }),
    3,
  ),
});

/** One arbitrary per format of this family (see generators.ts). */
export const SPAN_GENERATORS = {
  otel_genai_spans: small(otelSpan, 5).map((spans) => ({ name: "gen/trace.json", text: pretty({ spans }) })),
  openinference_spans: small(
    fc.record({
      name: text,
      context: fc.record({ trace_id: fc.constant("0x86"), span_id: fc.constantFrom("0x1", "0x2", "0x3") }),
      parent_id: maybe(fc.constantFrom("0x1", "0x2")),
      start_time: iso,
      attributes: fc.record({
        "openinference.span.kind": fc.constantFrom("LLM", "TOOL", "CHAIN", "AGENT"),
        "llm.input_messages.0.message.role": fc.constantFrom("user", "system", "tool"),
        "llm.input_messages.0.message.content": text,
        "llm.output_messages.0.message.role": fc.constant("assistant"),
        "llm.output_messages.0.message.tool_calls.0.tool_call.id": callId,
        "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": toolName,
        "tool.name": toolName,
        "input.value": maybe(fc.constantFrom('{"args": [[{"role": "user", "content": "x"}]]}', "{", "[]")),
        "output.value": maybe(
          fc.constantFrom(
            '{"tool_calls": [{"id": "c1", "function": {"name": "t", "arguments": "{}"}}]}',
            '{"generations": [[{"message": {"kwargs": {"tool_calls": [{"id": "c1", "name": "t", "args": {}}]}}}]]}',
            "null",
          ),
        ),
      }),
    }),
    5,
  ).map((spans) => ({ name: "gen/trace.json", text: pretty({ spans }) })),
  openllmetry_spans: small(
    fc.record({
      traceId: fc.constant("ab"),
      spanId: fc.constantFrom("01", "02"),
      startTimeUnixNano: fc.constantFrom("1700000000000000000", "1700000001000000000"),
      attributes: fc.record({
        "gen_ai.system": fc.constant("openai"),
        "gen_ai.prompt.0.role": fc.constantFrom("user", "system", "tool"),
        "gen_ai.prompt.0.content": text,
        "gen_ai.completion.0.role": fc.constant("assistant"),
        "gen_ai.completion.0.content": maybe(text),
        "gen_ai.completion.0.tool_calls.0.name": maybe(toolName),
        "gen_ai.completion.0.tool_calls.0.arguments": maybe(args),
      }),
    }),
    5,
  ).map((spans) => ({ name: "gen/trace.json", text: pretty({ spans }) })),
  langfuse_trace: fc
    .record({
      trace: fc.record({ id: fc.constant("t1"), name: maybe(text), timestamp: iso, sessionId: maybe(text) }),
      observations: small(
        fc.record({
          id: fc.constantFrom("o1", "o2", "o3"),
          type: fc.constantFrom("GENERATION", "SPAN", "EVENT", "TOOL", "AGENT"),
          name: toolName,
          startTime: iso,
          input: fc.oneof(
            text,
            fc.constant('[{"role":"user","content":"hi"},{"role":"tool","tool_call_id":"c1","content":"r"}]'),
            fc.constant('[{"type":"function_call","call_id":"c1","name":"t","arguments":"{}"}]'),
            small(chatMessage, 3).map((m) => JSON.stringify(m)),
          ),
          output: fc.oneof(
            text,
            fc.constant('{"role":"assistant","content":[{"type":"tool_use","id":"c1","name":"t","input":{}}]}'),
            fc.constant('[{"role":"assistant","content":"[{\\"function\\":{\\"name\\":\\"t\\"},\\"id\\":\\"c2\\"}]"}]'),
            chatMessage.map((m) => JSON.stringify(m)),
          ),
          model: maybe(fc.constant("gpt-4o")),
          metadata: maybe(fc.constant({ attributes: { "gen_ai.tool.name": "t", "gen_ai.tool.call.id": "c1" } })),
          usageDetails: maybe(fc.record({ input: count, output: count })),
        }),
        6,
      ),
    })
    .map((d) => ({ name: "gen/x.trace.json", text: pretty(d) })),
} satisfies Record<string, fc.Arbitrary<Generated>>;

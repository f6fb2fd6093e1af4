/**
 * OTLP JSON requests for tests: a small agent loop (user asks, the model calls a tool, the tool
 * answers, the model replies) in the current GenAI semantic conventions, one span per request
 * record so tests can deliver them in any order or twice.
 */
export interface LoopOptions {
  traceId?: string;
  conversationId?: string;
  /** Prefix for span ids (two hex digits), so two loops never share ids. */
  idPrefix?: string;
  /** The user's question (a second turn in the same conversation asks another). */
  question?: string;
  /** Messages of earlier turns that each chat span's input repeats first (semantic conventions send the whole history). */
  history?: unknown[];
}

type Attr = { key: string; value: { stringValue?: string; intValue?: string } };
const s = (key: string, value: string): Attr => ({ key, value: { stringValue: value } });
const i = (key: string, value: number): Attr => ({ key, value: { intValue: String(value) } });

export function otlpSpan(traceId: string, spanId: string, startSec: number, attributes: Attr[], name = "span") {
  const start = BigInt(1_750_000_000 + startSec) * 1_000_000_000n;
  return { traceId, spanId, name, kind: 1, startTimeUnixNano: String(start), endTimeUnixNano: String(start + 500_000_000n), attributes, status: {} };
}

export function otlpRequest(spans: unknown[], resource: Attr[] = [s("service.name", "test-agent")]) {
  return { resourceSpans: [{ resource: { attributes: resource }, scopeSpans: [{ scope: { name: "test" }, spans }] }] };
}

/** The four spans of one agent loop (agent, chat with a tool call, tool, chat with the answer). */
export function agentLoopSpans(options: LoopOptions = {}) {
  const traceId = options.traceId ?? "0af7651916cd43dd8448eb211c80319c";
  const p = options.idPrefix ?? "a0";
  const history = options.history ?? [];
  const callId = `call_${p}`;
  const conv = options.conversationId ? [s("gen_ai.conversation.id", options.conversationId)] : [];
  const user = { role: "user", parts: [{ type: "text", content: options.question ?? "What is the weather in Paris?" }] };
  const call = { role: "assistant", parts: [{ type: "tool_call", id: callId, name: "get_weather", arguments: { city: "Paris" } }] };
  const result = { role: "tool", parts: [{ type: "tool_call_response", id: callId, response: "18°C, cloudy" }] };
  const answer = { role: "assistant", parts: [{ type: "text", content: "It is 18°C and cloudy in Paris." }] };
  return [
    otlpSpan(
      traceId,
      `${p}00000000000001`,
      0,
      [s("gen_ai.operation.name", "invoke_agent"), s("gen_ai.agent.name", "weather"), ...conv],
      "invoke_agent weather",
    ),
    otlpSpan(
      traceId,
      `${p}00000000000002`,
      1,
      [
        s("gen_ai.operation.name", "chat"),
        s("gen_ai.request.model", "gpt-4o"),
        s("gen_ai.input.messages", JSON.stringify([...history, user])),
        s("gen_ai.output.messages", JSON.stringify([call])),
        i("gen_ai.usage.input_tokens", 20),
      ],
      "chat gpt-4o",
    ),
    otlpSpan(
      traceId,
      `${p}00000000000003`,
      2,
      [
        s("gen_ai.operation.name", "execute_tool"),
        s("gen_ai.tool.name", "get_weather"),
        s("gen_ai.tool.call.id", callId),
        s("gen_ai.tool.call.result", "18°C, cloudy"),
      ],
      "execute_tool get_weather",
    ),
    otlpSpan(
      traceId,
      `${p}00000000000004`,
      3,
      [
        s("gen_ai.operation.name", "chat"),
        s("gen_ai.request.model", "gpt-4o"),
        s("gen_ai.input.messages", JSON.stringify([...history, user, call, result])),
        s("gen_ai.output.messages", JSON.stringify([answer])),
      ],
      "chat gpt-4o",
    ),
  ];
}

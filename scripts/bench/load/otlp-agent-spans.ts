/**
 * The spans one instrumented agent exports, for scenario D: a long conversation of tool-using
 * turns in the current GenAI semantic conventions, four spans a turn (invoke_agent naming the
 * conversation, a chat span calling a tool, the execute_tool span, a chat span answering), each
 * turn its own trace, start times strictly increasing. Every turn adds four messages.
 */
type Attr = { key: string; value: { stringValue?: string; intValue?: string } };
const s = (key: string, value: string): Attr => ({ key, value: { stringValue: value } });
const i = (key: string, value: number): Attr => ({ key, value: { intValue: String(value) } });

export interface OtlpJsonSpan {
  traceId: string;
  spanId: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Attr[];
  status: Record<string, never>;
}

const OUTPUT = Array.from(
  { length: 12 },
  (_, n) => `-rw-r--r-- 1 agent agent ${1000 + n * 37} Nov 27 03:${String(n).padStart(2, "0")} src/module-${n}.ts`,
).join("\n");

/**
 * Span `n` (0-based) of exporter `exporter`'s conversation, started `n / spansPerSecond` s after
 * `baseNs`. `run` (8 hex digits) starts every trace id, so two runs on one database share no span.
 */
export function agentSpan(run: string, exporter: number, conversationId: string, n: number, baseNs: bigint, spansPerSecond: number): OtlpJsonSpan {
  const turn = Math.floor(n / 4);
  const hex = (value: number, width: number) => value.toString(16).padStart(width, "0");
  const traceId = `${run}${hex(exporter + 1, 8)}${hex(turn + 1, 8)}`.padEnd(32, "0");
  const spanId = `${hex(turn + 1, 12)}${hex((n % 4) + 1, 4)}`;
  const start = baseNs + (BigInt(n) * 1_000_000_000n) / BigInt(spansPerSecond);
  const callId = `call_${exporter}_${turn}`;
  const base = { traceId, spanId, kind: 1, startTimeUnixNano: String(start), endTimeUnixNano: String(start + 5_000_000n), status: {} };
  switch (n % 4) {
    case 0:
      return {
        ...base,
        name: "invoke_agent coder",
        attributes: [s("gen_ai.operation.name", "invoke_agent"), s("gen_ai.agent.name", "coder"), s("gen_ai.conversation.id", conversationId)],
      };
    case 1:
      return {
        ...base,
        name: "chat gpt-4o",
        attributes: [
          s("gen_ai.operation.name", "chat"),
          s("gen_ai.request.model", "gpt-4o"),
          s(
            "gen_ai.input.messages",
            JSON.stringify([{ role: "user", parts: [{ type: "text", content: `Step ${turn}: list the files under src and tell me which changed.` }] }]),
          ),
          s(
            "gen_ai.output.messages",
            JSON.stringify([
              { role: "assistant", parts: [{ type: "tool_call", id: callId, name: "run_shell", arguments: { command: `ls -l src # step ${turn}` } }] },
            ]),
          ),
          i("gen_ai.usage.input_tokens", 120 + turn),
          i("gen_ai.usage.output_tokens", 24),
        ],
      };
    case 2:
      return {
        ...base,
        name: "execute_tool run_shell",
        attributes: [
          s("gen_ai.operation.name", "execute_tool"),
          s("gen_ai.tool.name", "run_shell"),
          s("gen_ai.tool.call.id", callId),
          s("gen_ai.tool.call.result", OUTPUT),
        ],
      };
    default:
      return {
        ...base,
        name: "chat gpt-4o",
        attributes: [
          s("gen_ai.operation.name", "chat"),
          s("gen_ai.request.model", "gpt-4o"),
          s(
            "gen_ai.output.messages",
            JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: `Step ${turn}: module-${turn % 12}.ts changed.` }] }]),
          ),
          i("gen_ai.usage.output_tokens", 9),
        ],
      };
  }
}

/** An OTLP JSON export request of `spans` from one service. */
export function exportRequest(spans: OtlpJsonSpan[], service: string) {
  return { resourceSpans: [{ resource: { attributes: [s("service.name", service)] }, scopeSpans: [{ scope: { name: "bench-agent" }, spans }] }] };
}

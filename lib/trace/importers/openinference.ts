import type { Importer } from "../importer";
import { parseSpanDump } from "./otel-genai";

/**
 * OpenInference / Arize Phoenix span exports: spans whose attributes follow the OpenInference
 * conventions (`openinference.span.kind` LLM | TOOL | CHAIN | AGENT…, `llm.input_messages.N.message.*`,
 * `llm.output_messages.N.message.*` with `tool_calls.M.tool_call.*`, `tool.name`, `input.value` /
 * `output.value`, `llm.token_count.*`). They share the OpenTelemetry span parser (otel-genai.ts,
 * containers in otel-span-dump.ts, indexed messages in otel-indexed-messages.ts): only LLM spans are
 * model calls, TOOL spans are tool results, nested LLM wrappers are read once, and what an
 * instrumentation left out of the indexed attributes is taken from `input.value` / `output.value`
 * (openinference-values.ts). A bare attribute map (one span, as in OpenInference's own fixtures) is
 * accepted. One session per trace id.
 */
export const openInferenceImporter: Importer = {
  format: "openinference_spans",
  label: "OpenInference / Phoenix spans",
  detect(_name, head) {
    if (/"openinference\.span\.kind"\s*:/.test(head)) return 0.97;
    return /"llm\.(input|output)_messages\.\d+\.message\./.test(head) ? 0.9 : 0;
  },
  parse: (source) => parseSpanDump(source, "openinference_spans"),
};

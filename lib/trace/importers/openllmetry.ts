import type { Importer } from "../importer";
import { parseSpanDump } from "./otel-genai";

/**
 * OpenLLMetry (Traceloop) spans: the indexed attributes `gen_ai.prompt.N.role|content|tool_call_id`,
 * `gen_ai.prompt.N.tool_calls.M.id|name|arguments` and `gen_ai.completion.N.*` likewise, with
 * `gen_ai.system`, `gen_ai.request.model` and `gen_ai.usage.prompt_tokens|completion_tokens`
 * (read by otel-indexed-messages.ts through the OpenTelemetry span parser, otel-genai.ts). Also the
 * nested form backends such as AgentOps export (`span_attributes: {gen_ai: {completion: [{"0":
 * {role, content}}]}}`), flattened to the same keys (otel-span-dump.ts). The flat form was built
 * from OpenLLMetry's published semantic conventions (no real export was available; the fixture in
 * tests/fixtures/openllmetry is written to that schema). One session per trace id.
 */
export const openLlmetryImporter: Importer = {
  format: "openllmetry_spans",
  label: "OpenLLMetry spans",
  detect(_name, head) {
    if (/"gen_ai\.(prompt|completion)\.\d+\.(role|content|tool_calls)/.test(head)) return 0.97;
    return /"span_attributes"\s*:/.test(head) && /"gen_ai"\s*:\s*\{/.test(head) && /"completion"\s*:/.test(head) ? 0.9 : 0;
  },
  parse: (source) => parseSpanDump(source, "openllmetry_spans"),
};

import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { FormatId } from "../../lib/trace/model";
import { TRACES_NEW_DIR, readManifest, type ManifestEntry } from "./traces";

/**
 * The real traces of ../shared/traces-new that Tracefold imports. Its MANIFEST.tsv gives each
 * file's source and approximate counts under a source-format name (`tau2`, `gemini-cli`…); the
 * exact counts a test can hold an importer to are here, each read from the file's own structure
 * (the jq-style derivation is in the comment), with the Tracefold format that imports it.
 */
export interface NewTraceCounts {
  format: FormatId;
  sessions: number;
  messages: number;
  toolCalls: number;
  toolResults: number;
  /** Distinct models over the file's sessions, each session's most frequent first. */
  models: string[];
}

export const NEW_TRACE_COUNTS: Record<string, NewTraceCounts> = {
  // simulations: 5; messages: 218 in simulations[].messages + 5 domain-policy system messages;
  // tool_calls: 56 (25 requested by the user: telecom dual control); role=tool: 56.
  "tau2/blakeelias__tau2-bench/data/simulations/2025-10-05T07:52:52.930199_telecom_llm_agent_grok-3_user_simulator_grok-3.json": {
    format: "tau2_simulation",
    sessions: 5,
    messages: 223,
    toolCalls: 56,
    toolResults: 56,
    models: ["xai/grok-3"],
  },
  // simulations: 4 (four trials of task 8); messages: 104 + 4 policies; tool_calls 33; role=tool 33.
  "tau2/blakeelias__tau2-bench/data/simulations/2025-10-07T07:44:20.888691_airline_relaxed_llm_agent_grok-4-fast-reasoning_user_simulator_grok-4-fast-reasoning.json":
    { format: "tau2_simulation", sessions: 4, messages: 108, toolCalls: 33, toolResults: 33, models: ["xai/grok-4-fast-reasoning"] },
  // newer schema: simulations 50; messages 1,191 + 50 policies (simulations[].policy); tool_calls 265; role=tool 265.
  "tau2/sierra-research__tau2-bench/results/whissle/airline_run1.json": {
    format: "tau2_simulation",
    sessions: 50,
    messages: 1241,
    toolCalls: 265,
    toolResults: 265,
    models: ["whissle"],
  },
  // records by id, last version kept (6 of 16 message lines rewrite an earlier id): 3 user + 6 gemini,
  // 5 of them with answered toolCalls (one tool message each); toolCalls 12, all with a result.
  "gemini-cli/Mai0313__VibeCodingTracker/tests/fixtures/sessions/gemini.jsonl": {
    format: "gemini_cli_chat",
    sessions: 1,
    messages: 14,
    toolCalls: 12,
    toolResults: 12,
    models: ["gemini-3-flash-preview", "gemini-3.1-pro-preview"],
  },
  // messages[]: 3 user + 11 gemini, 8 of them with answered toolCalls; toolCalls 10, all answered.
  "gemini-cli/codemie-ai__codemie-code/tests/integration/metrics/fixtures/gemini/session-2025-12-01T21-45-5b959dae.json": {
    format: "gemini_cli_chat",
    sessions: 1,
    messages: 22,
    toolCalls: 10,
    toolResults: 10,
    models: ["gemini-3-pro-image-preview"],
  },
  // contents: 105; functionCall parts 45; functionResponse parts 46 (one answers a call the history does not hold).
  "gemini-cli/google-gemini__gemini-cli/trajectory.json": {
    format: "gemini_api_contents",
    sessions: 1,
    messages: 105,
    toolCalls: 45,
    toolResults: 46,
    models: [],
  },
  // response items: 11 messages + 18 function_call + 18 outputs + 1 custom_tool_call + 1 output (10 reasoning items are
  // encrypted only); no base_instructions in 0.39.
  "codex-rollout/Mai0313__VibeCodingTracker/tests/fixtures/sessions/codex.jsonl": {
    format: "codex_rollout_jsonl",
    sessions: 1,
    messages: 49,
    toolCalls: 19,
    toolResults: 19,
    models: ["aide-gpt-5"],
  },
  // base_instructions 1 + messages 17 + function_call 99 + custom_tool_call 3 + web_search_call 3 + outputs 99 + 3
  // (web searches have none; 25 reasoning items are encrypted only).
  "codex-rollout/codemie-ai__codemie-code/src/agents/plugins/codex/__tests__/fixtures/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl": {
    format: "codex_rollout_jsonl",
    sessions: 1,
    messages: 225,
    toolCalls: 105,
    toolResults: 102,
    models: ["gpt-5.5"],
  },
  // lean: base_instructions 1 + user_message events 3 (no user response items) + messages 3 + function_call 38 + outputs 38.
  "codex-rollout/codemie-ai__codemie-code/src/agents/plugins/codex/__tests__/fixtures/rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl": {
    format: "codex_rollout_jsonl",
    sessions: 1,
    messages: 83,
    toolCalls: 38,
    toolResults: 38,
    models: [],
  },
  // history: 6 steps, each state + model_output + result; actions 2,2,2,2,1,1 = 10; results 2,2,1,2,1,1 = 9.
  "browser-use/jakkaj__tools/AgentHistory.json": { format: "browser_use_history", sessions: 1, messages: 18, toolCalls: 10, toolResults: 9, models: [] },
  // one span's attribute map: llm.input_messages 0..2 (user, assistant with 1 tool call, tool) + llm.output_messages 0.
  "openinference/Arize-ai__openinference/js/packages/openinference-genai/test/__fixtures__/openinference_client_span_tool_calls.json": {
    format: "openinference_spans",
    sessions: 1,
    messages: 4,
    toolCalls: 1,
    toolResults: 1,
    models: ["gpt-4-0613"],
  },
  // spans with kind LLM: 3 (first input: 1 user; outputs 2 tool calls + 1 text); TOOL spans 2 (one result each).
  "openinference/mozilla-ai__any-agent/tests/evaluation/sample_traces/OPENAI.json": {
    format: "openinference_spans",
    sessions: 1,
    messages: 6,
    toolCalls: 2,
    toolResults: 2,
    models: ["gpt-4o"],
  },
  // LLM spans 3 (first input system + user; tool calls of outputs 1-2 only in output.value generations); TOOL spans 2;
  // CHAIN/AGENT spans (which repeat the prompt) are not model calls.
  "openinference/mozilla-ai__any-agent/tests/assets/LANGCHAIN_trace.json": {
    format: "openinference_spans",
    sessions: 1,
    messages: 7,
    toolCalls: 2,
    toolResults: 2,
    models: ["gpt-4.1-mini"],
  },
  // LLM spans 9 = 3 calls each wrapped twice (innermost read); input.value args[0] opens with system + user; TOOL spans 3.
  "openinference/mozilla-ai__any-agent/tests/assets/SMOLAGENTS_trace.json": {
    format: "openinference_spans",
    sessions: 1,
    messages: 8,
    toolCalls: 3,
    toolResults: 3,
    models: ["gpt-4.1-mini"],
  },
  // spans 7, three with span_attributes.gen_ai.completion [{"0": {role, content}}] (agent run + 2 responses); no tool calls.
  "openllmetry/AgentOps-AI__agentops/agentops/instrumentation/openai_agents/api_output.json": {
    format: "openllmetry_spans",
    sessions: 1,
    messages: 3,
    toolCalls: 0,
    toolResults: 0,
    models: ["gpt-4o"],
  },
  // samples 1: messages 10 (user, 4 assistant tool_calls + final, 4 tool); model per assistant message.
  "inspect-ai/UKGovernmentBEIS__inspect_ai/tests/analysis/test_logs/2025-05-12T20-27-36-04-00_browser.json": {
    format: "inspect_eval_log",
    sessions: 1,
    messages: 10,
    toolCalls: 4,
    toolResults: 4,
    models: ["gpt-4o-mini-2024-07-18"],
  },
  // samples 3 x (system, user, assistant).
  "inspect-ai/UKGovernmentBEIS__inspect_ai/tests/analysis/test_logs/2025-05-12T20-28-26-04-00_security-guide.json": {
    format: "inspect_eval_log",
    sessions: 3,
    messages: 9,
    toolCalls: 0,
    toolResults: 0,
    models: ["gpt-4o-mini-2024-07-18"],
  },
  // .eval zip: samples/*.json 10 x (system, user, assistant); assistant messages name no model, eval.model is used.
  "inspect-ai/UKGovernmentBEIS__inspect_ai/tests/scorer/logs/2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval": {
    format: "inspect_eval_log",
    sessions: 10,
    messages: 30,
    toolCalls: 0,
    toolResults: 0,
    models: ["openai/gpt-4o-mini"],
  },
  // observations by startTime: GENERATION 2 (first input 1 user; outputs: 1 function_call, 1 message), TOOL 1 (paired by name).
  "langfuse/langfuse__langfuse/worker/src/__tests__/chatml/framework-traces/openai-agents-2025-09-30.trace.json": {
    format: "langfuse_trace",
    sessions: 1,
    messages: 4,
    toolCalls: 1,
    toolResults: 1,
    models: ["gpt-4.1-2025-04-14"],
  },
  // GENERATION 2: first input 2 user (+ 1 role=tool tool definition, dropped); outputs 1 tool call (additional_kwargs) + 1 text;
  // the second input's role=tool message answers the call; SPANs are structure.
  "langfuse/langfuse__langfuse/worker/src/__tests__/chatml/framework-traces/langgraph-python-2025-08-22.trace.json": {
    format: "langfuse_trace",
    sessions: 1,
    messages: 5,
    toolCalls: 1,
    toolResults: 1,
    models: ["gpt-4o-2024-08-06"],
  },
  // GENERATION 4: first input 1 user (later inputs are {"content":"role"} placeholders); outputs text, tool_use, tool_use, text; TOOL 2.
  "langfuse/langfuse__langfuse/worker/src/__tests__/chatml/framework-traces/claude-agent-2025-12-22.trace.json": {
    format: "langfuse_trace",
    sessions: 1,
    messages: 7,
    toolCalls: 2,
    toolResults: 2,
    models: ["claude-sonnet-4-5-20250929"],
  },
  // GENERATION 2: first input system + user; first output 2 assistant messages whose content is the JSON of a tool call;
  // SPANs tool.ByeTool / tool.HelloTool carry gen_ai.tool.call.id in metadata.attributes (2 results); second output 1 text.
  "langfuse/langfuse__langfuse/worker/src/__tests__/chatml/framework-traces/koog-2025-08-26.trace.json": {
    format: "langfuse_trace",
    sessions: 1,
    messages: 7,
    toolCalls: 2,
    toolResults: 2,
    models: ["gpt-4o"],
  },
};

/** Files of these source formats that are recognised and refused, with the reason's pattern. */
export const REFUSED_NEW_TRACES: Record<string, { format: FormatId; message: RegExp }> = {
  "gemini-cli/codemie-ai__codemie-code/tests/integration/metrics/fixtures/gemini/logs.json": {
    format: "gemini_cli_chat",
    message: /logs\.json holds only the user's prompts/,
  },
};

/** The MANIFEST's source-format names whose every file is in one of the two lists above. */
export const COVERED_SOURCE_FORMATS = ["tau2", "gemini-cli", "codex-rollout", "browser-use", "openinference", "openllmetry", "langfuse", "inspect-ai"];

/** Rows of ../shared/traces-new/MANIFEST.tsv: path and source-format name. */
export function readNewManifestRows(): { path: string; sourceFormat: string }[] {
  const [header, ...rows] = readFileSync(resolve(TRACES_NEW_DIR, "MANIFEST.tsv"), "utf8").trim().split("\n");
  const columns = header!.split("\t");
  return rows.map((row) => {
    const cells = row.split("\t");
    return { path: cells[columns.indexOf("path")] ?? "", sourceFormat: cells[columns.indexOf("format")] ?? "" };
  });
}

/** The imported traces-new files as MANIFEST entries with exact counts (throws if one left the MANIFEST). */
export function readNewManifest(): ManifestEntry[] {
  const listed = new Set(readNewManifestRows().map((r) => r.path));
  return Object.entries(NEW_TRACE_COUNTS).map(([path, counts]) => {
    if (!listed.has(path)) throw new Error(`${path} is not in ${TRACES_NEW_DIR}/MANIFEST.tsv`);
    const absolutePath = resolve(TRACES_NEW_DIR, path);
    return { path, absolutePath, bytes: statSync(absolutePath).size, ...counts };
  });
}

/** Every real trace Tracefold imports: ../shared/traces, then the imported files of ../shared/traces-new. */
export function readAllManifests(): ManifestEntry[] {
  return [...readManifest(), ...readNewManifest()];
}

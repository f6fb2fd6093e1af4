import fc from "fast-check";
import type { FormatId } from "../../../lib/trace/model";

/**
 * Structurally plausible traces per format, built from the fields each importer reads, with
 * values that are usually right and sometimes odd (empty, unicode, control characters, ids that
 * link or dangle). Each arbitrary yields the file's text plus a file name the format would have.
 */
export interface Generated {
  name: string;
  text: string;
}

const text = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 30 }) },
  { weight: 1, arbitrary: fc.constantFrom("", "\n", "```", "#### x", "> Tokens: 1k sent", "\u2028", "<thinking-content-x>", "\r\n", "A".repeat(5000)) },
);
const callId = fc.constantFrom("call_1", "call_2", "toolu_1", "toolu_2", "");
const toolName = fc.constantFrom("bash", "read_file", "edit", "str_replace_editor", "");
const args = fc.oneof(fc.constantFrom('{"cmd":"ls"}', "{}", "not json", ""), fc.jsonValue({ maxDepth: 2 }));
const iso = fc.constantFrom("2025-03-02T09:14:00Z", "2025-03-02T09:14:00.123456", "not a date", "");
const count = fc.oneof(fc.nat({ max: 100_000 }), fc.constantFrom(-1, 0.5, 1e21));
const small = <T>(arb: fc.Arbitrary<T>, max = 6) => fc.array(arb, { maxLength: max });
const jsonl = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join("\n") + "\n";
const pretty = (value: unknown) => JSON.stringify(value, null, 2) + "\n";
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

/** A Chat Completions message (shared by tau-bench, mini-swe-agent, SWE-agent, openai_chat). */
const chatMessage = fc.record(
  {
    role: fc.constantFrom("system", "developer", "user", "assistant", "tool", "function"),
    content: fc.oneof(
      text,
      fc.constant(null),
      small(
        fc.oneof(
          fc.record({ type: fc.constant("text"), text }),
          fc.record({ type: fc.constant("image_url"), image_url: fc.record({ url: fc.constant("data:image/png;base64,AAAA") }) }),
        ),
        3,
      ),
    ),
    tool_calls: maybe(small(fc.record({ id: callId, type: fc.constant("function"), function: fc.record({ name: toolName, arguments: args }) }), 3)),
    tool_call_id: maybe(callId),
    name: maybe(toolName),
  },
  { requiredKeys: ["role", "content"] },
);

const anthropicBlock = fc.oneof(
  fc.record({ type: fc.constant("text"), text }),
  fc.record({ type: fc.constant("thinking"), thinking: text }),
  fc.record({ type: fc.constant("tool_use"), id: callId, name: toolName, input: fc.jsonValue({ maxDepth: 2 }) }),
  fc.record({
    type: fc.constant("tool_result"),
    tool_use_id: callId,
    content: fc.oneof(text, small(fc.record({ type: fc.constant("text"), text }), 2)),
    is_error: fc.boolean(),
  }),
  fc.record({
    type: fc.constant("image"),
    source: fc.record({ type: fc.constant("base64"), media_type: fc.constant("image/png"), data: fc.constantFrom("AAAA", "", "!!") }),
  }),
);
const anthropicMessage = fc.record({ role: fc.constantFrom("user", "assistant", "system"), content: fc.oneof(text, small(anthropicBlock, 4)) });

const claudeRecord = fc.oneof(
  fc.record({
    type: fc.constant("user"),
    sessionId: fc.constant("s1"),
    uuid: fc.uuid(),
    timestamp: iso,
    isMeta: fc.boolean(),
    isCompactSummary: fc.boolean(),
    message: fc.record({ role: fc.constant("user"), content: fc.oneof(text, small(anthropicBlock, 3)) }),
  }),
  fc.record({
    type: fc.constant("assistant"),
    sessionId: fc.constant("s1"),
    uuid: fc.uuid(),
    isSidechain: fc.boolean(),
    message: fc.record({
      id: fc.constantFrom("msg_1", "msg_2"),
      model: fc.constantFrom("claude-opus-4-6", "<synthetic>"),
      role: fc.constant("assistant"),
      content: small(anthropicBlock, 3),
      usage: fc.record({ input_tokens: count, output_tokens: count, cache_read_input_tokens: count }),
    }),
  }),
  fc.record({
    type: fc.constant("system"),
    subtype: fc.constant("compact_boundary"),
    compactMetadata: maybe(fc.record({ trigger: fc.constantFrom("auto", "manual"), preTokens: count })),
  }),
  fc.record({ type: fc.constantFrom("summary", "progress", "file-history-snapshot", "queue-operation", "mystery"), summary: text }),
);

const codexRecord = fc.oneof(
  fc.record({
    type: fc.constant("session_meta"),
    payload: fc.record({
      id: fc.uuid(),
      cwd: fc.constant("/w"),
      cli_version: fc.constant("0.46.0"),
      base_instructions: maybe(fc.oneof(text, fc.record({ text }))),
    }),
  }),
  fc.record({ type: fc.constant("turn_context"), payload: fc.record({ model: fc.constantFrom("gpt-5-codex", "") }) }),
  fc.record({
    type: fc.constant("response_item"),
    payload: fc.record({
      type: fc.constant("message"),
      role: fc.constantFrom("user", "assistant", "developer", "system", "other"),
      content: small(
        fc.record({ type: fc.constantFrom("input_text", "output_text", "input_image"), text, image_url: fc.constant("data:image/png;base64,AAAA") }),
        3,
      ),
    }),
  }),
  fc.record({
    type: fc.constant("response_item"),
    payload: fc.record({
      type: fc.constantFrom("function_call", "custom_tool_call", "local_shell_call"),
      name: toolName,
      arguments: args,
      call_id: callId,
      input: text,
    }),
  }),
  fc.record({
    type: fc.constant("response_item"),
    payload: fc.record({
      type: fc.constantFrom("function_call_output", "custom_tool_call_output"),
      call_id: callId,
      output: fc.oneof(text, fc.record({ content: text, success: fc.boolean() })),
    }),
  }),
  fc.record({
    type: fc.constant("response_item"),
    payload: fc.record({ type: fc.constant("reasoning"), summary: small(fc.record({ type: fc.constant("summary_text"), text }), 2) }),
  }),
  fc.record({
    type: fc.constant("event_msg"),
    payload: fc.record({
      type: fc.constantFrom("token_count", "agent_message"),
      info: maybe(fc.record({ last_token_usage: fc.record({ input_tokens: count, output_tokens: count }) })),
    }),
  }),
  fc.record({
    type: fc.constant("event_msg"),
    payload: fc.record({
      type: fc.constantFrom("user_message", "web_search_end"),
      message: fc.oneof(text, fc.constant(null)),
      call_id: callId,
      images: maybe(small(fc.constantFrom("data:image/png;base64,AAAA", "x"), 2)),
    }),
  }),
  fc.record({
    type: fc.constant("response_item"),
    payload: fc.record({
      type: fc.constant("web_search_call"),
      status: fc.constant("completed"),
      action: fc.record({ type: fc.constant("search"), query: text }),
    }),
  }),
  fc.record({ type: fc.constant("compacted"), payload: fc.record({ message: text }) }),
);

const responsesItem = fc.oneof(
  fc.record({
    type: fc.constant("message"),
    role: fc.constantFrom("user", "assistant", "system", "developer"),
    content: fc.oneof(text, small(fc.record({ type: fc.constantFrom("input_text", "output_text"), text }), 2)),
  }),
  fc.record({ type: fc.constant("function_call"), call_id: callId, name: toolName, arguments: args }),
  fc.record({ type: fc.constant("function_call_output"), call_id: callId, output: text }),
  fc.record({ type: fc.constant("reasoning"), summary: small(fc.record({ type: fc.constant("summary_text"), text }), 2) }),
);

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

const openhandsEvent = fc.record({
  id: fc.nat({ max: 50 }),
  timestamp: iso,
  source: fc.constantFrom("user", "agent", "environment"),
  message: text,
  action: maybe(fc.constantFrom("message", "run", "read", "finish", "think", "change_agent_state")),
  observation: maybe(fc.constantFrom("run", "read", "error", "agent_state_changed", "null")),
  args: maybe(fc.record({ content: text, command: text, thought: text })),
  content: maybe(text),
  cause: maybe(fc.nat({ max: 50 })),
  tool_call_metadata: maybe(
    fc.record({
      tool_call_id: callId,
      function_name: toolName,
      model_response: fc.record({ model: fc.constant("gpt-4o"), usage: fc.record({ prompt_tokens: count }) }),
    }),
  ),
});

const aiderLine = fc.oneof(
  fc.constantFrom(
    "# aider chat started at 2025-05-01 10:00:00",
    "> aider --model gpt-4o  ",
    "> Tokens: 1.2k sent, 300 received.  ",
    "> Applied edit to app.py  ",
    "```python",
    "```",
    "<<<<<<< SEARCH",
    "=======",
    ">>>>>>> REPLACE",
    "",
    "> Running pytest  ",
    "<thinking-content-abc>",
    "</thinking-content-abc>",
  ),
  text.map((t) => `#### ${t}`),
  text,
);

const tau2Message = fc.record({
  role: fc.constantFrom("assistant", "user", "tool", "system", "env"),
  content: fc.oneof(text, fc.constant(null)),
  tool_calls: maybe(
    fc.oneof(
      fc.constant(null),
      small(fc.record({ id: callId, name: toolName, arguments: fc.jsonValue({ maxDepth: 2 }), requestor: fc.constantFrom("assistant", "user") }), 2),
    ),
  ),
  id: maybe(callId),
  requestor: maybe(fc.constantFrom("assistant", "user")),
  error: maybe(fc.boolean()),
  usage: maybe(fc.record({ prompt_tokens: count, completion_tokens: count })),
  timestamp: maybe(iso),
});
const tau2Document = fc.record({
  timestamp: iso,
  info: fc.record({
    agent_info: fc.record({ llm: fc.constantFrom("gpt-4o", "") }),
    user_info: fc.record({ implementation: fc.constant("user_simulator"), llm: fc.constant("gpt-4o") }),
    environment_info: fc.record({ domain_name: fc.constant("airline"), policy: maybe(text) }),
  }),
  tasks: fc.constant([]),
  simulations: small(
    fc.record({
      id: maybe(fc.constantFrom("sim-1", "sim-1", "")),
      task_id: fc.oneof(fc.nat(9), text),
      trial: maybe(fc.nat(3)),
      policy: maybe(text),
      messages: small(tau2Message, 6),
      reward_info: maybe(fc.record({ reward: fc.double() })),
    }),
    3,
  ),
});

const geminiPart = fc.oneof(
  fc.record({ text }),
  fc.record({ text, thought: fc.boolean() }),
  fc.record({ functionCall: fc.record({ name: toolName, args: fc.jsonValue({ maxDepth: 2 }), id: maybe(callId) }) }),
  fc.record({
    functionResponse: fc.record({ name: toolName, id: maybe(callId), response: fc.oneof(fc.record({ output: text }), fc.record({ error: text })) }),
  }),
  fc.record({ inlineData: fc.record({ mimeType: fc.constantFrom("image/png", "application/pdf"), data: fc.constantFrom("AAAA", "", "!!") }) }),
  fc.record({ thoughtSignature: fc.constant("c2ln") }),
);
const geminiRecord = fc.record({
  id: fc.constantFrom("m1", "m2", "m3", ""),
  timestamp: iso,
  type: fc.constantFrom("user", "gemini", "info", "error", "mystery"),
  content: fc.oneof(text, small(geminiPart, 3)),
  toolCalls: maybe(
    small(
      fc.record({
        id: callId,
        name: toolName,
        args: fc.jsonValue({ maxDepth: 2 }),
        status: fc.constantFrom("success", "error", "cancelled"),
        result: maybe(small(geminiPart, 2)),
      }),
      3,
    ),
  ),
  thoughts: maybe(small(fc.record({ subject: text, description: text }), 2)),
  tokens: maybe(fc.record({ input: count, output: count, cached: count, thoughts: count })),
  model: maybe(fc.constantFrom("gemini-2.5-pro", "")),
});
const geminiChatLine = fc.oneof(
  { weight: 6, arbitrary: geminiRecord },
  { weight: 1, arbitrary: fc.record({ $set: fc.record({ lastUpdated: iso, summary: maybe(text) }) }) },
  { weight: 1, arbitrary: fc.record({ $rewindTo: fc.constantFrom("m1", "m2", "zz") }) },
);
const geminiHeader = {
  sessionId: "0ab84937-9fe7-4284-986a-33c832af0b6a",
  projectHash: "9da8b3df",
  startTime: "2026-04-23T12:52:52.759Z",
  lastUpdated: "2026-04-23T12:52:52.759Z",
};
const streamEvent = fc.oneof(
  fc.record({ type: fc.constant("message"), timestamp: iso, role: fc.constantFrom("user", "assistant", "system"), content: text, delta: maybe(fc.boolean()) }),
  fc.record({ type: fc.constant("tool_use"), timestamp: iso, tool_name: toolName, tool_id: callId, parameters: fc.jsonValue({ maxDepth: 2 }) }),
  fc.record({
    type: fc.constant("tool_result"),
    timestamp: iso,
    tool_id: callId,
    status: fc.constantFrom("success", "error"),
    output: maybe(text),
    error: maybe(fc.record({ type: text, message: text })),
  }),
  fc.record({
    type: fc.constantFrom("error", "result", "mystery"),
    timestamp: iso,
    severity: fc.constant("warning"),
    message: text,
    stats: maybe(fc.record({ input_tokens: count, output_tokens: count, cached: count })),
  }),
);
const browserUseStep = fc.record({
  model_output: fc.oneof(
    fc.constant(null),
    fc.record({
      current_state: maybe(fc.record({ evaluation_previous_goal: text, memory: text, next_goal: text })),
      thinking: maybe(text),
      action: small(
        fc.oneof(fc.record({ click_element_by_index: fc.record({ index: fc.nat(40) }) }), fc.record({ done: fc.record({ text }) }), fc.constant({})),
        3,
      ),
    }),
  ),
  result: small(fc.record({ is_done: fc.boolean(), extracted_content: maybe(text), error: maybe(text), include_in_memory: fc.boolean() }), 3),
  state: fc.record({
    url: text,
    title: text,
    tabs: small(fc.record({ url: text, title: text }), 2),
    screenshot: maybe(fc.constantFrom("iVBORw0KGgo=", "")),
    screenshot_path: maybe(fc.constant("/tmp/s.png")),
  }),
  metadata: maybe(
    fc.record({
      step_start_time: fc.oneof(fc.double({ min: 1.7e9, max: 1.8e9, noNaN: true }), fc.constant(-1)),
      step_end_time: fc.double({ min: 1.7e9, max: 1.8e9, noNaN: true }),
      input_tokens: count,
      step_number: fc.nat(20),
    }),
  ),
});

/** One arbitrary per format; the JSON document formats get one top-level shape each. */
export const GENERATORS: Record<FormatId, fc.Arbitrary<Generated>> = {
  claude_code_jsonl: small(claudeRecord, 12).map((r) => ({ name: "gen/session.jsonl", text: jsonl(r) })),
  codex_rollout_jsonl: small(codexRecord, 12).map((r) => ({ name: "gen/rollout-2025-10-14T09-12-00-abc.jsonl", text: jsonl(r) })),
  tau_bench_traj: small(fc.record({ task_id: fc.oneof(fc.nat(20), text), reward: fc.double(), trial: fc.nat(3), traj: small(chatMessage, 6) }), 4).map((e) => ({
    name: "gen/gpt-4o-airline.json",
    text: pretty(e),
  })),
  tau2_simulation: tau2Document.map((d) => ({ name: "gen/2025-10-05T07:52:52_airline_llm_agent.json", text: pretty(d) })),
  gemini_cli_chat: fc.oneof(
    small(geminiChatLine, 10).map((r) => ({ name: "gen/session-2026-04-23T12-52-0ab84937.jsonl", text: jsonl([geminiHeader, ...r]) })),
    small(geminiRecord, 8).map((messages) => ({ name: "gen/session-2025-12-01T21-45-5b959dae.json", text: pretty({ ...geminiHeader, messages }) })),
  ),
  gemini_api_contents: small(fc.record({ role: fc.constantFrom("user", "model", "function", "tool"), parts: small(geminiPart, 4) }), 8).map((c) => ({
    name: "gen/checkpoint-x.json",
    text: pretty(c),
  })),
  gemini_cli_stream_json: small(streamEvent, 12).map((e) => ({
    name: "gen/stream.jsonl",
    text: jsonl([{ type: "init", timestamp: "2025-10-10T12:00:00.000Z", session_id: "s-1", model: "gemini-2.5-pro" }, ...e]),
  })),
  browser_use_history: small(browserUseStep, 5).map((history) => ({ name: "gen/AgentHistory.json", text: pretty({ history }) })),
  mini_swe_agent_traj: fc
    .record({
      info: fc.record({
        config: fc.record({ model: fc.record({ model_name: fc.constant("deepseek/deepseek-chat") }) }),
        model_stats: fc.record({ api_calls: count }),
      }),
      messages: small(
        fc.record({ role: fc.constantFrom("system", "user", "assistant", "exit"), content: text, extra: maybe(fc.record({ returncode: fc.nat(2) })) }),
        8,
      ),
      trajectory_format: fc.constant("mini-swe-agent-1"),
    })
    .map((d) => ({ name: "gen/x.traj.json", text: pretty(d) })),
  swe_agent_traj: fc
    .record({
      trajectory: small(fc.record({ action: text, observation: text, response: text, thought: text }), 5),
      history: small(
        fc.record({
          role: fc.constantFrom("system", "user", "assistant", "tool"),
          content: text,
          agent: fc.constant("main"),
          message_type: fc.constantFrom("action", "observation", "thought"),
          tool_calls: maybe(small(fc.record({ id: callId, function: fc.record({ name: toolName, arguments: args }) }), 2)),
          tool_call_ids: maybe(fc.array(callId, { maxLength: 1 })),
        }),
        8,
      ),
      info: fc.record({ model_stats: fc.record({ tokens_sent: count, tokens_received: count, api_calls: count }) }),
    })
    .map((d) => ({ name: "gen/x.traj", text: pretty(d) })),
  openhands_events: small(openhandsEvent, 10).map((e) => ({ name: "gen/events.json", text: pretty(e) })),
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
  inspect_eval_log: fc
    .record({
      version: fc.constant(2),
      status: fc.constant("success"),
      eval: fc.record({ task: text, task_id: fc.constant("t"), run_id: fc.constant("r"), model: fc.constant("openai/gpt-4o"), created: iso }),
      samples: small(
        fc.record({
          id: fc.oneof(fc.nat(9), text),
          epoch: fc.nat(3),
          messages: small(
            fc.record({
              role: fc.constantFrom("system", "user", "assistant", "tool", "bot"),
              content: fc.oneof(text, small(fc.record({ type: fc.constantFrom("text", "reasoning", "image"), text: maybe(text), reasoning: maybe(text) }), 2)),
              tool_calls: maybe(small(fc.record({ id: callId, function: toolName, arguments: fc.record({ a: text }) }), 2)),
              tool_call_id: maybe(callId),
            }),
            6,
          ),
          attachments: maybe(fc.constant({ abc: "resolved" })),
        }),
        3,
      ),
    })
    .map((d) => ({ name: "gen/log.json", text: pretty(d) })),
  aider_chat_md: fc
    .array(aiderLine, { maxLength: 30 })
    .map((lines) => ({ name: "gen/.aider.chat.history.md", text: ["# aider chat started at 2025-05-01 10:00:00", ...lines].join("\n") + "\n" })),
  openai_chat: fc
    .oneof(
      small(chatMessage, 6).map((m) => pretty(m)),
      fc.record({ model: fc.constant("gpt-4o"), messages: small(chatMessage, 6) }).map(pretty),
      small(fc.record({ messages: small(chatMessage, 4) }), 4).map(jsonl),
    )
    .map((t) => ({ name: "gen/chat.json", text: t })),
  openai_responses: fc
    .oneof(
      small(responsesItem, 6).map(pretty),
      fc.record({ model: fc.constant("gpt-4.1"), input: fc.oneof(text, small(responsesItem, 4)), output: small(responsesItem, 3) }).map(pretty),
    )
    .map((t) => ({ name: "gen/responses.json", text: t })),
  anthropic_messages: fc
    .oneof(
      fc.record({ model: fc.constant("claude-haiku-4-5"), system: maybe(text), messages: small(anthropicMessage, 6) }).map(pretty),
      small(
        fc.record({
          request: fc.record({ messages: small(anthropicMessage, 4) }),
          response: fc.record({
            type: fc.constant("message"),
            role: fc.constant("assistant"),
            content: small(anthropicBlock, 2),
            usage: fc.record({ input_tokens: count }),
          }),
        }),
        3,
      ).map(jsonl),
    )
    .map((t) => ({ name: "gen/messages.json", text: t })),
  tracefold_jsonl: small(
    fc.oneof(
      fc.record({
        tracefold: fc.constantFrom("1", "2"),
        type: fc.constant("session"),
        id: fc.constantFrom("a", "b", ""),
        title: maybe(text),
        parentId: maybe(fc.constant("a")),
      }),
      fc.record({
        type: fc.constant("message"),
        session: maybe(fc.constantFrom("a", "b", "zz")),
        role: fc.constantFrom("system", "user", "assistant", "tool", "bot"),
        parts: small(
          fc.oneof(
            fc.record({ type: fc.constant("text"), text }),
            fc.record({ type: fc.constant("tool_call"), id: callId, name: toolName, arguments: fc.string() }),
            fc.record({ type: fc.constant("tool_result"), callId, content: text }),
            fc.record({ type: fc.constant("image"), bytes: count }),
          ),
          3,
        ),
      }),
      fc.record({
        type: fc.constant("compaction"),
        session: maybe(fc.constant("a")),
        kind: fc.constantFrom("other", "codex_compacted", "bad"),
        summary: maybe(text),
        preTokens: maybe(count),
      }),
    ),
    10,
  ).map((r) => ({ name: "gen/x.tracefold.jsonl", text: jsonl(r) })),
};

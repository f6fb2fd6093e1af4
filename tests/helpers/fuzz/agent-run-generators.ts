import fc from "fast-check";
import { args, callId, chatMessage, count, iso, maybe, pretty, small, text, toolName, type Generated } from "./arbitrary-values";

/* Agent benchmark and harness runs: tau-bench, tau2, mini-swe-agent, SWE-agent, OpenHands, browser-use and Inspect logs. */

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

/** One arbitrary per format of this family (see generators.ts). */
export const AGENT_RUN_GENERATORS = {
  tau_bench_traj: small(fc.record({ task_id: fc.oneof(fc.nat(20), text), reward: fc.double(), trial: fc.nat(3), traj: small(chatMessage, 6) }), 4).map((e) => ({
    name: "gen/gpt-4o-airline.json",
    text: pretty(e),
  })),
  tau2_simulation: tau2Document.map((d) => ({ name: "gen/2025-10-05T07:52:52_airline_llm_agent.json", text: pretty(d) })),
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
} satisfies Record<string, fc.Arbitrary<Generated>>;

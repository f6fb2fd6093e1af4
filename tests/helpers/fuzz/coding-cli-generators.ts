import fc from "fast-check";
import { anthropicBlock, args, callId, count, iso, jsonl, maybe, small, text, toolName, type Generated } from "./arbitrary-values";

/* Claude Code, Codex and aider sessions: JSONL records and a chat-history markdown file. */

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

/** One arbitrary per format of this family (see generators.ts). */
export const CODING_CLI_GENERATORS = {
  claude_code_jsonl: small(claudeRecord, 12).map((r) => ({ name: "gen/session.jsonl", text: jsonl(r) })),
  codex_rollout_jsonl: small(codexRecord, 12).map((r) => ({ name: "gen/rollout-2025-10-14T09-12-00-abc.jsonl", text: jsonl(r) })),
  aider_chat_md: fc
    .array(aiderLine, { maxLength: 30 })
    .map((lines) => ({ name: "gen/.aider.chat.history.md", text: ["# aider chat started at 2025-05-01 10:00:00", ...lines].join("\n") + "\n" })),
} satisfies Record<string, fc.Arbitrary<Generated>>;

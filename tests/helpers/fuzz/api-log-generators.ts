import fc from "fast-check";
import {
  anthropicBlock,
  anthropicMessage,
  args,
  callId,
  chatMessage,
  count,
  jsonl,
  maybe,
  pretty,
  small,
  text,
  toolName,
  type Generated,
} from "./arbitrary-values";

/* Logged API traffic (Chat Completions, Responses, Anthropic Messages) and Tracefold's own JSONL. */

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

/** One arbitrary per format of this family (see generators.ts). */
export const API_LOG_GENERATORS = {
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
} satisfies Record<string, fc.Arbitrary<Generated>>;

import fc from "fast-check";

/**
 * The values every format's generator draws from (tests/helpers/fuzz/*-generators.ts): usually
 * right and sometimes odd (empty, unicode, control characters, ids that link or dangle).
 */
export interface Generated {
  name: string;
  text: string;
}

export const text = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 30 }) },
  { weight: 1, arbitrary: fc.constantFrom("", "\n", "```", "#### x", "> Tokens: 1k sent", "\u2028", "<thinking-content-x>", "\r\n", "A".repeat(5000)) },
);
export const callId = fc.constantFrom("call_1", "call_2", "toolu_1", "toolu_2", "");
export const toolName = fc.constantFrom("bash", "read_file", "edit", "str_replace_editor", "");
export const args = fc.oneof(fc.constantFrom('{"cmd":"ls"}', "{}", "not json", ""), fc.jsonValue({ maxDepth: 2 }));
export const iso = fc.constantFrom("2025-03-02T09:14:00Z", "2025-03-02T09:14:00.123456", "not a date", "");
export const count = fc.oneof(fc.nat({ max: 100_000 }), fc.constantFrom(-1, 0.5, 1e21));
export const small = <T>(arb: fc.Arbitrary<T>, max = 6) => fc.array(arb, { maxLength: max });
export const jsonl = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join("\n") + "\n";
export const pretty = (value: unknown) => JSON.stringify(value, null, 2) + "\n";
export const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

/** A Chat Completions message (shared by tau-bench, mini-swe-agent, SWE-agent, openai_chat). */
export const chatMessage = fc.record(
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

export const anthropicBlock = fc.oneof(
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
export const anthropicMessage = fc.record({ role: fc.constantFrom("user", "assistant", "system"), content: fc.oneof(text, small(anthropicBlock, 4)) });

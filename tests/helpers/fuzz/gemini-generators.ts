import fc from "fast-check";
import { args, callId, count, iso, jsonl, maybe, pretty, small, text, toolName, type Generated } from "./arbitrary-values";

/* Gemini CLI chats (JSONL and JSON), Gemini API contents and Gemini CLI stream-json events. */

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

/** One arbitrary per format of this family (see generators.ts). */
export const GEMINI_GENERATORS = {
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
} satisfies Record<string, fc.Arbitrary<Generated>>;

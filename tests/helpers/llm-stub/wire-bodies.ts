/**
 * Success bodies of each wire protocol the stub speaks, as the real APIs shape them (the AI SDK
 * validates them with its own schemas, so a wrong shape here fails the test like a real API change
 * would). Usage carries cached input tokens where the protocol reports them.
 */
export interface StubUsage {
  input: number;
  output: number;
  cached: number;
}

export const DEFAULT_USAGE: StubUsage = { input: 11, output: 7, cached: 0 };

export function openAiBody(text: string, model = "stub-model", usage: StubUsage = DEFAULT_USAGE): unknown {
  return {
    id: "chatcmpl-stub",
    object: "chat.completion",
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
    usage: {
      prompt_tokens: usage.input,
      completion_tokens: usage.output,
      total_tokens: usage.input + usage.output,
      prompt_tokens_details: { cached_tokens: usage.cached },
    },
  };
}

export function responsesBody(text: string, model = "stub-model", usage: StubUsage = DEFAULT_USAGE): unknown {
  return {
    id: "resp_stub",
    object: "response",
    created_at: 1_700_000_000,
    status: "completed",
    model,
    output: [{ type: "message", id: "msg_stub", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] }],
    incomplete_details: null,
    usage: {
      input_tokens: usage.input,
      input_tokens_details: { cached_tokens: usage.cached },
      output_tokens: usage.output,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: usage.input + usage.output,
    },
  };
}

export function anthropicBody(text: string, model = "stub-model", usage: StubUsage = DEFAULT_USAGE): unknown {
  // Anthropic reports cache reads beside input_tokens (which excludes them).
  return {
    id: "msg_stub",
    type: "message",
    role: "assistant",
    model,
    content: [{ type: "text", text }],
    stop_reason: "end_turn",
    usage: { input_tokens: usage.input - usage.cached, output_tokens: usage.output, cache_read_input_tokens: usage.cached },
  };
}

export function bedrockConverseBody(text: string, usage: StubUsage = DEFAULT_USAGE): unknown {
  // Converse's inputTokens excludes cache reads too.
  return {
    output: { message: { role: "assistant", content: [{ text }] } },
    stopReason: "end_turn",
    usage: { inputTokens: usage.input - usage.cached, outputTokens: usage.output, totalTokens: usage.input + usage.output, cacheReadInputTokens: usage.cached },
    metrics: { latencyMs: 1 },
  };
}

export function googleBody(text: string, model = "stub-model", usage: StubUsage = DEFAULT_USAGE): unknown {
  return {
    candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP", index: 0 }],
    usageMetadata: {
      promptTokenCount: usage.input,
      candidatesTokenCount: usage.output,
      totalTokenCount: usage.input + usage.output,
      cachedContentTokenCount: usage.cached,
    },
    modelVersion: model,
  };
}

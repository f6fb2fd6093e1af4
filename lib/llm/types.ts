/**
 * The one interface lib/ uses to talk to a language model (planner, summarizer, judges). lib/ never
 * does I/O itself: the server passes in a client that calls the configured OpenAI-compatible or
 * Anthropic endpoint (server/llm/), and tests pass one backed by a local stub server.
 */
export interface LlmMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface LlmRequest {
  messages: LlmMessage[];
  maxTokens: number;
  temperature?: number;
  /** What the call is for, for logs and per-purpose model settings. */
  purpose: "planner" | "summarizer" | "judge" | "ab-judge" | "rubric" | "connection-test";
}

export interface LlmResponse {
  text: string;
  model: string;
  inputTokens?: number;
  outputTokens?: number;
}

export interface LlmClient {
  readonly id: string;
  complete(request: LlmRequest): Promise<LlmResponse>;
}

/**
 * The one interface lib/ uses to talk to a language model (planner, summarizer, judges). lib/ never
 * does I/O itself: the server passes in a client backed by the AI SDK's providers (server/llm/),
 * and tests pass one backed by a local stub server or a script.
 */
export interface LlmMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** What a call is for: the server may route each purpose to its own endpoint and model. */
export type LlmPurpose = "planner" | "summarizer" | "judge" | "ab-judge" | "rubric" | "connection-test";

/**
 * The part of an AbortSignal lib/ relies on (lib/ is type-checked without DOM or Node types; a
 * real AbortSignal fits).
 */
export interface LlmAbortSignal {
  readonly aborted: boolean;
  addEventListener(type: "abort", listener: () => void): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

export interface LlmRequest {
  messages: LlmMessage[];
  /** Upper bound of output tokens; the server sends it under the name the API wants. */
  maxTokens: number;
  /** Ignored for reasoning models, which refuse it. */
  temperature?: number;
  purpose: LlmPurpose;
  /** Cancels the call (and its retries). */
  signal?: LlmAbortSignal;
}

export interface LlmResponse {
  text: string;
  model: string;
  /** Provider-reported input tokens, cached ones included. */
  inputTokens?: number;
  outputTokens?: number;
  /** Of inputTokens, those read from the provider's prompt cache. */
  cachedInputTokens?: number;
  /** What the call cost in USD, from the usage and the endpoint's configured prices (absent: no prices set). */
  costUsd?: number;
}

export interface LlmClient {
  /** `<provider>:<model>` of the default endpoint. */
  readonly id: string;
  /**
   * The id of the model that serves `purpose`, when a client routes purposes to different models
   * (absent: `id` serves every purpose). Planner and judge ids are built from it, so a stored
   * verdict names the model that really judged.
   */
  idFor?(purpose: LlmPurpose): string;
  complete(request: LlmRequest): Promise<LlmResponse>;
}

/** The id of the model that serves `purpose` on `client`. */
export function clientIdFor(client: LlmClient, purpose: LlmPurpose): string {
  return client.idFor?.(purpose) ?? client.id;
}

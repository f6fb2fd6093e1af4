/**
 * What OpenAI answers when a reasoning model (gpt-5*, o1/o3/o4*) is sent a parameter it refuses:
 * HTTP 400 with `invalid_request_error`, the parameter named — the messages are the API's own. The
 * stub applies it to the models it is told are reasoning models, on both OpenAI protocols.
 */
export interface Refusal {
  status: 400;
  body: { error: { message: string; type: "invalid_request_error"; param: string; code: string } };
}

export function reasoningRefusal(path: string, body: Record<string, unknown>): Refusal | undefined {
  if ("max_tokens" in body) {
    return refusal(
      "max_tokens",
      "unsupported_parameter",
      "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
    );
  }
  if ("temperature" in body && body.temperature !== 1) {
    return path.endsWith("/responses")
      ? refusal("temperature", "unsupported_parameter", "Unsupported parameter: 'temperature' is not supported with this model.")
      : refusal(
          "temperature",
          "unsupported_value",
          `Unsupported value: 'temperature' does not support ${String(body.temperature)} with this model. Only the default (1) value is supported.`,
        );
  }
  return undefined;
}

function refusal(param: string, code: string, message: string): Refusal {
  return { status: 400, body: { error: { message, type: "invalid_request_error", param, code } } };
}

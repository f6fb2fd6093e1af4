/**
 * A failed model call, typed so callers can tell a bad key from an outage. `bodyExcerpt` is the
 * start of the provider's error body with the API key redacted; request headers are never kept.
 */
/** `not_configured`: the purpose has no endpoint (neither its own nor the default). */
export type LlmErrorCode = "http_error" | "timeout" | "network" | "bad_response" | "cancelled" | "not_configured";

export class LlmError extends Error {
  constructor(
    readonly code: LlmErrorCode,
    message: string,
    readonly details: { provider: string; attempts: number; status?: number; bodyExcerpt?: string; retryable: boolean },
  ) {
    super(message);
    this.name = "LlmError";
  }

  get status(): number | undefined {
    return this.details.status;
  }
}

/** Status codes worth another attempt: request timeout, rate limit, server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** The first `max` characters of a body, with any occurrence of the secret removed. */
export function excerpt(body: string, secret: string | undefined, max = 500): string {
  const clean = secret ? body.split(secret).join("[redacted]") : body;
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

import { AISDKError, APICallError } from "ai";
import { excerpt, isRetryableStatus, LlmError } from "./errors";

/**
 * One failed SDK attempt as our typed LlmError, so callers keep telling a bad key (401, not
 * retried) from an outage (429/5xx/network/timeout, retried) from a malformed answer. The SDK runs
 * with maxRetries 0: retries are ours (call-with-retries.ts) so their waits are injectable in tests.
 */
export interface AttemptContext {
  provider: string;
  attempt: number;
  timeoutMs: number;
  secret?: string;
  timedOut: boolean;
  cancelled: boolean;
}

export function classifyError(error: unknown, ctx: AttemptContext): LlmError {
  const base = { provider: ctx.provider, attempts: ctx.attempt };
  if (error instanceof LlmError) return error;
  if (ctx.cancelled) return new LlmError("cancelled", `${ctx.provider} call was cancelled`, { ...base, retryable: false });
  if (ctx.timedOut) return new LlmError("timeout", `${ctx.provider} did not answer within ${ctx.timeoutMs} ms`, { ...base, retryable: true });
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const body = error.responseBody !== undefined ? { bodyExcerpt: excerpt(error.responseBody, ctx.secret) } : {};
    if (status === undefined)
      return new LlmError("network", `${ctx.provider} could not be reached: ${scrub(error.message, ctx.secret)}`, { ...base, retryable: true });
    if (status >= 200 && status < 300)
      return new LlmError("bad_response", `${ctx.provider} returned a body the client cannot read: ${scrub(error.message, ctx.secret)}`, {
        ...base,
        status,
        ...body,
        retryable: false,
      });
    return new LlmError("http_error", `${ctx.provider} answered HTTP ${status}`, { ...base, status, ...body, retryable: isRetryableStatus(status) });
  }
  if (AISDKError.isInstance(error))
    return new LlmError("bad_response", `${ctx.provider} answer was not usable: ${scrub(error.message, ctx.secret)}`, { ...base, retryable: false });
  const reason = error instanceof Error ? error.message : String(error);
  return new LlmError("network", `${ctx.provider} could not be reached: ${scrub(reason, ctx.secret)}`, { ...base, retryable: true });
}

/** `retry-after` (seconds or an HTTP date) of a failed attempt, in milliseconds. */
export function retryAfterMs(error: unknown, now = Date.now()): number | undefined {
  if (!APICallError.isInstance(error)) return undefined;
  const value = error.responseHeaders?.["retry-after"];
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

function scrub(text: string, secret: string | undefined): string {
  return secret ? text.split(secret).join("[redacted]") : text;
}

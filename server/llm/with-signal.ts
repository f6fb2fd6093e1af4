import type { LlmAbortSignal, LlmClient } from "../../lib/llm/types";

/**
 * The same client with `signal` on every request, so work that is stopped (a job worker's graceful
 * stop) also stops its in-flight model calls and their retries instead of paying for answers no one
 * reads. lib/ code needs no signal plumbing: the policy gets this client as its `llm`. A request
 * that brings its own signal keeps it; either aborting cancels.
 */
export function withSignal(client: LlmClient, signal: AbortSignal): LlmClient {
  return {
    id: client.id,
    ...(client.idFor ? { idFor: client.idFor.bind(client) } : {}),
    complete: (request) => client.complete({ ...request, signal: request.signal ? either(request.signal, signal) : signal }),
  };
}

function either(a: LlmAbortSignal, b: AbortSignal): AbortSignal {
  const controller = new AbortController();
  const abort = () => controller.abort();
  if (a.aborted || b.aborted) abort();
  a.addEventListener("abort", abort);
  b.addEventListener("abort", abort, { once: true });
  return controller.signal;
}

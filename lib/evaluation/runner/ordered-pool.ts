import type { LlmAbortSignal } from "../../llm/types";

/**
 * Runs tasks with at most `concurrency` in flight and yields their results in task order, whatever
 * order they finish in, so a suite judged by a slow model endpoint keeps its deterministic output.
 * Tasks are pulled from the iterable only as slots free up (a lazy plan is never expanded ahead by
 * more than `concurrency`). A task must not reject: a rejected promise waiting its turn in the
 * queue would be unhandled — wrap failures into the result.
 *
 * Once `signal` aborts, no task starts and the pool returns at once without waiting for the tasks
 * in flight: their results, finished or not, are dropped (a cancelled run must not wait for a model
 * call that may never answer; the caller aborts those calls with the same signal).
 */
export async function* orderedPool<T>(tasks: Iterable<() => Promise<T>>, concurrency: number, signal?: LlmAbortSignal): AsyncGenerator<T> {
  const iterator = tasks[Symbol.iterator]();
  const inFlight: Promise<T>[] = [];
  const startNext = () => {
    if (signal?.aborted) return;
    const next = iterator.next();
    if (!next.done) inFlight.push(next.value());
  };
  const stop = stopped(signal);
  try {
    for (let i = 0; i < Math.max(1, Math.floor(concurrency)); i++) startNext();
    while (inFlight.length > 0 && !signal?.aborted) {
      const result = await Promise.race([inFlight.shift()!, stop.promise]);
      if (result === STOPPED || signal?.aborted) return;
      startNext();
      yield result;
    }
  } finally {
    stop.dispose();
  }
}

const STOPPED = Symbol("stopped");

/** A promise that resolves when `signal` aborts (never without one), and its listener's removal. */
function stopped(signal: LlmAbortSignal | undefined): { promise: Promise<typeof STOPPED>; dispose: () => void } {
  if (!signal) return { promise: new Promise(() => {}), dispose: () => {} };
  let onAbort = () => {};
  const promise = new Promise<typeof STOPPED>((resolve) => {
    onAbort = () => resolve(STOPPED);
    if (signal.aborted) resolve(STOPPED);
    else signal.addEventListener("abort", onAbort);
  });
  return { promise, dispose: () => signal.removeEventListener("abort", onAbort) };
}

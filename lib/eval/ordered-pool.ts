/**
 * Runs tasks with at most `concurrency` in flight and yields their results in task order, whatever
 * order they finish in, so a suite judged by a slow model endpoint keeps its deterministic output.
 * Tasks are pulled from the iterable only as slots free up (a lazy plan is never expanded ahead by
 * more than `concurrency`). A task must not reject: a rejected promise waiting its turn in the
 * queue would be unhandled — wrap failures into the result.
 */
export async function* orderedPool<T>(tasks: Iterable<() => Promise<T>>, concurrency: number): AsyncGenerator<T> {
  const iterator = tasks[Symbol.iterator]();
  const inFlight: Promise<T>[] = [];
  const startNext = () => {
    const next = iterator.next();
    if (!next.done) inFlight.push(next.value());
  };
  for (let i = 0; i < Math.max(1, Math.floor(concurrency)); i++) startNext();
  while (inFlight.length > 0) {
    const result = await inFlight.shift()!;
    startNext();
    yield result;
  }
}

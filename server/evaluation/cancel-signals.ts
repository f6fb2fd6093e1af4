/**
 * In-process cancel signals: cancel-run sets the database flag (seen by any process: the runner
 * polls it, cancel-watch.ts) and, when the run executes in this process, aborts this run's
 * AbortSignal, which stops the suite loop and every model call in flight at once (run-evaluation
 * hands it to the LLM client). Kept on globalThis so Next's module reloads share one map.
 */
const globalSignals = globalThis as unknown as { tracefoldEvalCancels?: Map<string, AbortController> };

function controllers(): Map<string, AbortController> {
  return (globalSignals.tracefoldEvalCancels ??= new Map());
}

function controllerOf(runId: string): AbortController {
  const map = controllers();
  let controller = map.get(runId);
  if (!controller) map.set(runId, (controller = new AbortController()));
  return controller;
}

export function signalCancel(runId: string): void {
  controllerOf(runId).abort();
}

/** The run's cancel signal (already aborted when a cancel came first). */
export function cancelSignalFor(runId: string): AbortSignal {
  return controllerOf(runId).signal;
}

export function isCancelSignalled(runId: string): boolean {
  return controllers().get(runId)?.signal.aborted === true;
}

export function clearCancelSignal(runId: string): void {
  controllers().delete(runId);
}

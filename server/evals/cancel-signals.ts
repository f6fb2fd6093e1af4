/**
 * In-process cancel signals: cancel-run sets the database flag (seen by any process at its next
 * batch write) and, when the run executes in this process, this signal, which the runner checks
 * between every two units. Kept on globalThis so Next's module reloads share one set.
 */
const globalSignals = globalThis as unknown as { tracefoldEvalCancels?: Set<string> };

function signals(): Set<string> {
  return (globalSignals.tracefoldEvalCancels ??= new Set());
}

export function signalCancel(runId: string): void {
  signals().add(runId);
}

export function isCancelSignalled(runId: string): boolean {
  return signals().has(runId);
}

export function clearCancelSignal(runId: string): void {
  signals().delete(runId);
}

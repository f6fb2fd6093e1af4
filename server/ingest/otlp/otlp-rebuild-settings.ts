import { processEnv } from "../../env";

/**
 * TRACEFOLD_OTLP_SYNC_SPANS (64): a session of at most this many spans is rebuilt inside the
 * request that stored them, so a short agent loop is listed the moment its export is answered;
 * a longer one is marked dirty and rebuilt after the request, coalesced (otlp-rebuild-scheduler.ts).
 */
export function otlpSyncRebuildSpans(): number {
  const value = Number(processEnv().TRACEFOLD_OTLP_SYNC_SPANS ?? "64");
  return Number.isInteger(value) && value >= 0 ? value : 64;
}

/** TRACEFOLD_OTLP_REBUILD_MS (1000): the least pause between two rebuilds of one long session. */
export function otlpRebuildIntervalMs(): number {
  const value = Number(processEnv().TRACEFOLD_OTLP_REBUILD_MS ?? "1000");
  return Number.isInteger(value) && value >= 0 ? value : 1000;
}

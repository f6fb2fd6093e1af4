import { getDb } from "../../db/client";
import { databaseUrl, engineOf } from "../../db/engine";
import { getBlobStore } from "../../storage/configured-blob-store";
import { OtlpRebuildScheduler } from "./otlp-rebuild-scheduler";
import { otlpRebuildIntervalMs } from "./otlp-rebuild-settings";
import { rebuildDirtyOtlpSession, staleDirtyOtlpSessions } from "./rebuild-dirty-otlp-session";

/** A mark older than this that no rebuild touched belongs to a stopped studio (or a failed rebuild). */
const STALE_MS = 30_000;
const SWEEP_EVERY_MS = 30_000;

/**
 * The studio process's scheduler of deferred OTLP rebuilds, on the configured database and blob
 * store. Kept on globalThis: Next bundles route handlers and instrumentation separately, and one
 * process must coalesce all its requests' rebuilds in one place.
 */
export function otlpRebuilds(): OtlpRebuildScheduler {
  const holder = globalThis as { [SCHEDULER]?: OtlpRebuildScheduler };
  holder[SCHEDULER] ??= new OtlpRebuildScheduler({
    rebuild: (key) => rebuildDirtyOtlpSession(getDb(), engineOf(databaseUrl()), getBlobStore(), key),
    intervalMs: otlpRebuildIntervalMs,
    // Rebuilds are mostly database time: two overlap it with the other's CPU work.
    concurrency: 2,
  });
  return holder[SCHEDULER];
}
const SCHEDULER = Symbol.for("tracefold.otlpRebuilds");
const SWEEP = Symbol.for("tracefold.otlpRebuildSweep");

/**
 * Every 30 s (and once now), schedules the sessions left marked dirty for 30 s: those a stopped or
 * killed studio never rebuilt, and those whose rebuild failed. Started once per studio process.
 */
export function startOtlpRebuildSweeps(): void {
  const holder = globalThis as { [SWEEP]?: ReturnType<typeof setInterval> };
  if (holder[SWEEP]) return;
  const sweep = async () => {
    try {
      const scheduler = otlpRebuilds();
      scheduler.schedule((await staleDirtyOtlpSessions(getDb(), STALE_MS)).filter((key) => !scheduler.has(key)));
    } catch (error) {
      console.error(`OTLP rebuild sweep failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  holder[SWEEP] = setInterval(() => void sweep(), SWEEP_EVERY_MS);
  holder[SWEEP].unref();
  void sweep();
}

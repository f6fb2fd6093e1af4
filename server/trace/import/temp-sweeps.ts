import { join } from "node:path";
import { dataDir } from "../../storage/data-dir";
import { sweepUploadTemps, UPLOAD_TEMP_MAX_AGE_MS } from "./sweep-upload-temps";
import { processEnv } from "@/server/env";

/** The temp directories requests and imports write under the data directory. */
export function tempDirs(root = dataDir()): string[] {
  return [join(root, "tmp", "uploads"), join(root, "tmp", "imports")];
}

/**
 * Sweeps the temp directories now and every `everyMs` (TRACEFOLD_TEMP_SWEEP_MS, default 10
 * minutes; 0 turns the timer off) for files older than UPLOAD_TEMP_MAX_AGE_MS. Why a timer: an
 * upload sweeps before it writes, but a studio SIGKILLed mid-upload leaves the raw original —
 * secrets included — on disk until someone uploads again, which on a quiet server may be never.
 * Each studio and worker process runs this for its own data directory (temp files are local disk,
 * also when blobs are in S3); the age rule keeps other processes' in-flight files.
 */
export interface TempSweeps {
  /** The first round, started at once. */
  swept: Promise<void>;
  /** Ends the rounds; resolves once a round in flight has finished, so nothing is removed after it. */
  stop(): Promise<void>;
}

export function startTempSweeps(
  options: { dirs?: string[]; everyMs?: number; maxAgeMs?: number; log?: (line: string) => void; onRound?: () => void } = {},
): TempSweeps {
  const dirs = options.dirs ?? tempDirs();
  const everyMs = options.everyMs ?? sweepMsFromEnv();
  const log = options.log ?? ((line: string) => console.log(line));
  const sweep = async () => {
    for (const dir of dirs) {
      const removed = await sweepUploadTemps(dir, Date.now(), options.maxAgeMs ?? UPLOAD_TEMP_MAX_AGE_MS).catch((error: unknown) => {
        log(`temp sweep of ${dir} failed: ${String(error)}`);
        return [];
      });
      if (removed.length > 0) log(`temp sweep: removed ${removed.length} abandoned file(s) from ${dir}`);
    }
  };
  // One round at a time: a tick that finds a round in flight is skipped, and stop() waits for it.
  let inFlight: Promise<void> | undefined;
  let stopped = false;
  const round = () => {
    if (inFlight || stopped) return inFlight ?? Promise.resolve();
    inFlight = sweep().finally(() => {
      inFlight = undefined;
      options.onRound?.();
    });
    return inFlight;
  };
  const swept = round();
  const timer = everyMs > 0 ? setInterval(() => void round(), everyMs) : undefined;
  timer?.unref();
  return {
    swept,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await inFlight;
    },
  };
}

function sweepMsFromEnv(): number {
  const raw = processEnv().TRACEFOLD_TEMP_SWEEP_MS?.trim();
  if (raw === undefined || raw === "") return 10 * 60_000;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`TRACEFOLD_TEMP_SWEEP_MS must be a whole number of milliseconds (0 turns the sweep off), got ${JSON.stringify(raw)}`);
  return value;
}

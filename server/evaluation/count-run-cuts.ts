import { isDefaultCutLevels } from "@/lib/evaluation/cuts/cut-levels";
import { replayCuts } from "@/lib/evaluation/cuts/cut-protocol";
import type { Db } from "../db/client";
import { loadSuiteSessions } from "./load-suite-sessions";
import { runCutOptions, type EvalSettings } from "./run-settings";

/**
 * The replay cuts a run evaluates over its sessions. The suite's cached summaries count cuts with
 * the default levels (`defaultCuts`, free); other levels need each session's index, so those
 * sessions are loaded one at a time and cut with the run's levels — the same call the runner
 * makes, so the run's `total` is exact from the start.
 */
export async function countRunCuts(
  db: Db,
  sessionIds: readonly string[],
  settings: Pick<EvalSettings, "cutLevels" | "tokenizer">,
  defaultCuts: number,
): Promise<number> {
  if (isDefaultCutLevels(settings.cutLevels)) return defaultCuts;
  let cuts = 0;
  for (const id of sessionIds) {
    const { sessions } = await loadSuiteSessions(db, [id], settings);
    for (const { session, index } of sessions) cuts += replayCuts(session, index, runCutOptions(settings)).length;
  }
  return cuts;
}

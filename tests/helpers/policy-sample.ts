import { replayCuts, type ReplayCut } from "../../lib/evaluation/cuts/cut-protocol";
import { windowAtLevel } from "../../lib/compaction/policies/select-cut";
import type { AnalyzedSession } from "../../lib/analysis/analyze";
import { loadAllTraces } from "./load-traces";

/**
 * A fixed, small sample of real replay points for policy-wide tests: from every trace file of
 * ../shared/traces, up to `perFile` sessions spread evenly over the file (first one included), each
 * at the replay protocol's default cuts (native compactions, 50/70/90% of the session) with the
 * protocol's window (prefix at 90% of it). Deterministic, so pinned results can be compared.
 */
export interface SamplePoint {
  /** `<trace path>#<session id>@<cut>`: stable across runs. */
  key: string;
  session: AnalyzedSession;
  cut: ReplayCut;
  window: number;
}

export async function policySample(perFile = 3): Promise<SamplePoint[]> {
  const points: SamplePoint[] = [];
  for (const { entry, sessions } of await loadAllTraces()) {
    const step = Math.max(1, Math.ceil(sessions.length / perFile));
    for (let i = 0; i < sessions.length && i / step < perFile; i += step) {
      const s = sessions[i]!;
      for (const cut of replayCuts(s.session, s.index)) {
        points.push({ key: `${entry.path}#${s.session.id}@${cut.cut}`, session: s, cut, window: windowAtLevel(cut.prefixTokens) });
      }
    }
  }
  return points;
}

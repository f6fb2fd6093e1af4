import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { loadSessions } from "../cli/evaluation/load-sessions";
import { calibrateJudge, type ResolvedTrace } from "../lib/evaluation/calibration/calibrate-judge";
import { parseGold, type GoldUnit } from "../lib/evaluation/calibration/gold";
import { JUDGE_VERSION } from "../lib/evaluation/judge/version";

/** Where the gold set and its calibration report live (relative to the repository). */
export const GOLD_FILE = "gold/judge-gold.jsonl";
/**
 * A second gold set, labelled the same way but sampled from sessions outside the first one's pool
 * (`scripts/gold/sample.ts --pool rest`) after the judge's rules were chosen: no rule was tuned
 * on it, so its agreement is the unbiased figure.
 */
export const HOLDOUT_FILE = "gold/judge-holdout.jsonl";
export const CALIBRATION_FILE = "gold/judge-calibration.json";

/** The traces the gold units point into: ../shared/traces beside the repo, or TRACEFOLD_TRACES_DIR. */
export const GOLD_TRACES_DIR = process.env.TRACEFOLD_TRACES_DIR ?? resolve(__dirname, "../../shared/traces");

/** The calibration report of the current judge over the gold set and the held-out set (gold/judge-calibration.json). */
export async function computeCalibration() {
  const main = await calibrateFile(GOLD_FILE);
  const holdout = await calibrateFile(HOLDOUT_FILE);
  const { gold: _gold, ...rest } = holdout;
  return { judgeVersion: JUDGE_VERSION, ...main, holdout: { gold: HOLDOUT_FILE, ...rest } };
}

async function calibrateFile(file: string) {
  const { lines, errors } = parseGold(readFileSync(resolve(__dirname, "..", file), "utf8"));
  if (errors.length > 0) throw new Error(`${file}: ${errors.map((e) => `line ${e.line}: ${e.message}`).join("; ")}`);
  const paths = [...new Set(lines.map((l) => l.unit.trace.path))].map((p) => resolve(GOLD_TRACES_DIR, p));
  const loaded = await loadSessions(paths);
  const resolveUnit = (unit: GoldUnit): ResolvedTrace | undefined => {
    const found = loaded.sessions.find((s) => rawId(s.session.id) === rawId(unit.sessionId) && s.path === resolve(GOLD_TRACES_DIR, unit.trace.path));
    if (!found) return undefined;
    const tokenizer = loaded.tokenizerFor(found.session);
    return { session: found.session, index: found.index, countTokens: (t) => tokenizer.count(t) };
  };
  const { judged: _judged, ...result } = calibrateJudge(lines, resolveUnit);
  return { gold: file, ...result };
}

/** A session id as its file names it: loadSessions suffixes ids repeated across files with `#2`, `#3`. */
function rawId(id: string): string {
  return id.replace(/#\d+$/, "");
}

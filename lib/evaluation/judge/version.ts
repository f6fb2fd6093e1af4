/**
 * The dependency judge's version: bumped whenever a rule changes what it extracts or how it reads a
 * view, so a calibration report (gold/judge-calibration.json) says which judge it measured and a
 * stale one is caught (tests/unit/evaluation/calibration.test.ts).
 */
export const JUDGE_VERSION = "2026-11-26.2";

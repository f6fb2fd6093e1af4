import { z } from "zod";

/**
 * The token shares, in whole percent, at which the replay protocol cuts a session (besides its
 * native compactions): at each level, the first safe boundary whose prefix reaches that share of
 * the session's tokens. Part of an evaluation run's settings (`cutLevels`) and of
 * `tracefold eval --cut-levels`, so a run states which cuts it judged and stays reproducible.
 *
 * Whole percents keep each level's cut reason (`share-<level>`) unique and its threshold
 * (`level / 100` of the session's tokens) identical to the historical 0.5/0.7/0.9 shares.
 */
export const DEFAULT_CUT_LEVELS: readonly number[] = [50, 70, 90];

/** A denser protocol: every 10% (ten or more cuts of one long session, nine levels plus natives). */
export const DENSE_CUT_LEVELS: readonly number[] = [10, 20, 30, 40, 50, 60, 70, 80, 90];

/** At most this many levels: each adds a cut per session, so a run's cost grows with them. */
export const MAX_CUT_LEVELS = 20;

/**
 * Validated levels: 1–99 whole percents, strictly increasing (so no level is listed twice and the
 * stored order is the evaluation order), 1 to MAX_CUT_LEVELS of them. Issues are located at the
 * offending index.
 */
export const CutLevelsSchema = z
  .array(
    z
      .number({ message: "each cut level must be a number" })
      .int("each cut level must be a whole percent")
      .min(1, "each cut level must be at least 1")
      .max(99, "each cut level must be at most 99"),
    { message: "cut levels must be a list of percents" },
  )
  .min(1, "give at least one cut level")
  .max(MAX_CUT_LEVELS, `give at most ${MAX_CUT_LEVELS} cut levels`)
  .superRefine((levels, ctx) => {
    levels.forEach((level, i) => {
      if (i > 0 && level <= levels[i - 1]!)
        ctx.addIssue({ code: "custom", path: [i], message: `cut levels must be strictly increasing: ${level} follows ${levels[i - 1]}` });
    });
  });

/**
 * Reads levels written as text ("50,70,90", spaces allowed, a trailing `%` tolerated) for the CLI
 * and the new-run form. Returns the numbers as typed (NaN for a non-number) so CutLevelsSchema
 * reports every problem with its position; an empty text is an empty list.
 */
export function parseCutLevelsText(text: string): number[] {
  const trimmed = text.trim();
  if (trimmed === "") return [];
  return trimmed.split(",").map((part) => {
    const value = part.trim().replace(/%$/, "");
    return value === "" ? Number.NaN : Number(value);
  });
}

/** Levels as the protocol's shares (`level / 100`). */
export function cutLevelShares(levels: readonly number[]): number[] {
  return levels.map((level) => level / 100);
}

/** Whether these are the default levels (the protocol every run used before levels were a setting). */
export function isDefaultCutLevels(levels: readonly number[]): boolean {
  return levels.length === DEFAULT_CUT_LEVELS.length && levels.every((level, i) => level === DEFAULT_CUT_LEVELS[i]);
}

/** "50, 70, 90%" — how the studio and reports show levels. */
export function formatCutLevels(levels: readonly number[]): string {
  return `${levels.join(", ")}%`;
}

import { SweepLevelsSchema } from "@/lib/evaluation/cuts/budget";

/**
 * The new-run form's "Budget sweep" field: whole percents of each prefix removed, written
 * `20,40,60` (spaces, a trailing `%` and empty entries allowed, as `tracefold eval --sweep` reads
 * them; empty means no sweep). Checked with lib/evaluation's
 * SweepLevelsSchema — the schema the server and `tracefold eval --sweep` use — and every problem is
 * reported by budget, the value in percent: `budget 2 (120%): a budget is at most 95%`.
 * `errorsFromFields` does the same for the server's field errors (`sweep`, `sweep.<i>`).
 */
export const SWEEP_PRESETS: readonly (readonly number[])[] = [
  [20, 40, 60],
  [20, 30, 40, 50, 60],
];

export type SweepField = { ok: true; levels: number[] | undefined } | { ok: false; errors: string[] };

export function parseSweepField(text: string): SweepField {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: true, levels: undefined };
  const parts = trimmed
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
  const errors: string[] = [];
  const levels = parts.map((part, i) => {
    const bare = part.replace(/%$/, "").trim();
    if (!/^\d+$/.test(bare)) {
      errors.push(`budget ${i + 1}: “${part}” is not a whole percent`);
      return Number.NaN;
    }
    return Number(bare);
  });
  if (errors.length > 0) return { ok: false, errors };
  const parsed = SweepLevelsSchema.safeParse(levels);
  if (parsed.success) return { ok: true, levels: parsed.data };
  return { ok: false, errors: parsed.error.issues.map((issue) => located(issue.path, issue.message, levels)) };
}

/** Server field errors of the sweep (`sweep`, `sweep.1`, …) in the form's words. */
export function sweepErrorsFromFields(fields: Record<string, string[]>, levels: readonly number[] | undefined): string[] {
  return Object.entries(fields).flatMap(([key, messages]) => {
    if (key === "sweep") return messages;
    const at = /^sweep\.(\d+)$/.exec(key);
    return at ? messages.map((m) => located([Number(at[1])], m, levels ?? [])) : [];
  });
}

function located(path: readonly PropertyKey[], message: string, levels: readonly number[]): string {
  const i = typeof path[0] === "number" ? path[0] : undefined;
  return i === undefined ? message : `budget ${i + 1} (${levels[i]}%): ${message}`;
}

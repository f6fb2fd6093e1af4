import { wilson, Z95, type ProportionInterval } from "../../stats/wilson";

/**
 * A/B-calibrated no-impact rates (seed 000, "We further calibrate oldest-turn-fold against Self-GC
 * with an A/B judge").
 *
 * The single-prompt judge rates each policy's projection alone; where it passes one policy and
 * fails the other at the same cut (a discordant case), its two absolute verdicts are the least
 * trustworthy. Those cases go to the A/B judge, which sees both candidates side by side and says
 * which preserves the future better. Calibration replaces the single-prompt labels of every
 * audited discordant case with the A/B adjudication:
 *
 *   A_better → A no-impact, B impacted
 *   B_better → A impacted,  B no-impact
 *   tie      → both impacted (default `tie: "both-impacted"`; see below)
 *
 * Concordant cases and unaudited discordant cases keep their single-prompt labels. The calibrated
 * rate of each policy is its new no-impact count over n, with a Wilson interval at that n.
 *
 * Why ties count as impacted: the case is discordant, so one absolute verdict already found an
 * impact; a tie says the other candidate is no better, i.e. neither is shown to be safe. A
 * no-impact claim needs positive evidence. `"keep"` (ties leave the raw labels) and
 * `"both-no-impact"` are available for sensitivity analysis.
 *
 * With `extrapolate: true` (and the raw discordant cells `onlyA`/`onlyB`), the audited cases are
 * treated as a random sample of their direction stratum (judge passed A only / B only) and each
 * stratum's A/B outcome shares are applied to all of its cases: the stratified estimator for
 * "what the A/B judge would say on every discordant case". Counts become fractional.
 *
 * ── Reproducing seed 000 (n = 332; raw Self-GC 92.47 % = 307/332, oldest-turn 89.76 % = 298/332;
 *    20 audited disagreements: Self-GC better 11, tie 7, baseline better 2; reported 92.77 / 87.46)
 *
 * Let s be the number of audited cases where the single-prompt judge had passed Self-GC. Then
 *   Self-GC  = 307 − s + 11            = 318 − s
 *   baseline = 298 − (20 − s) + 2      = 280 + s
 * and their sum is 598 whatever s is (every decisive case keeps one pass, every tie loses its
 * one pass). The paper's sum is 308 + 290.37 = 598.37; with ties kept the sum would be 605, with
 * ties as both-no-impact 612, so the paper's figures identify the tie rule as "both impacted".
 * Self-GC = 308 (92.77 %, Wilson [89.47, 95.09] — exactly Table 4) gives s = 10: a balanced audit
 * of 10 cases in each direction. The 20 cannot be all the disagreements: onlyA − onlyB = 307 − 298
 * = 9 makes their total odd.
 *
 * Discrepancy: the same rule gives the baseline 290/332 = 87.35 % [83.34, 90.50], not the paper's
 * 87.46 % [83.46, 90.60]. 87.46 % of 332 is 290.37 sessions — no whole count k/332 rounds to it
 * (290 → 87.35, 291 → 87.65) — and the paper's interval is Wilson at p̂ = 0.8746, n = 332, so the
 * paper used a fractional count from a step it does not describe. No rule that labels sessions pass
 * or fail can produce it; neither does the stratified extrapolation for any discordant total
 * ≤ 298 and any per-stratum split of the 11/7/2 with tie credit 0, ½ or 1 (checked exhaustively).
 * We implement the principled rule above, which reproduces the Self-GC figure exactly and misses
 * the baseline by 0.11 points (0.37 of a session).
 */
export type AbOutcome = "A_better" | "B_better" | "tie";
export type TieRule = "both-impacted" | "keep" | "both-no-impact";

/** One cut judged under policies A and B, with the A/B adjudication when it was audited. */
export interface CalibrationCase {
  /** Single-prompt no-impact verdict for A. */
  a: boolean;
  /** Single-prompt no-impact verdict for B. */
  b: boolean;
  /** Set only for audited cases; ignored on concordant cases (there is nothing to adjudicate). */
  ab?: AbOutcome;
}

export interface AbOutcomeCounts {
  aBetter: number;
  tie: number;
  bBetter: number;
}

/** Aggregate form, for when only counts are published (as in seed 000). */
export interface CalibrationCounts {
  n: number;
  /** Raw single-prompt no-impact counts. */
  passA: number;
  passB: number;
  /** Raw discordant cells; required for `extrapolate`, checked against the audit when given. */
  onlyA?: number;
  onlyB?: number;
  /** A/B outcomes of audited discordant cases, by which side the single-prompt judge had passed. */
  audited: { passedA: AbOutcomeCounts; passedB: AbOutcomeCounts };
}

export interface CalibrationOptions {
  tie?: TieRule;
  extrapolate?: boolean;
  z?: number;
}

export interface CalibratedRates {
  n: number;
  tie: TieRule;
  extrapolated: boolean;
  raw: { a: ProportionInterval; b: ProportionInterval };
  /** Calibrated no-impact counts over n (fractional when extrapolating). */
  calibrated: { a: ProportionInterval; b: ProportionInterval };
  audited: { passedA: AbOutcomeCounts; passedB: AbOutcomeCounts; total: number };
}

/** Calibrates from per-cut verdicts: counts the cells and audit outcomes, then `calibrateCounts`. */
export function calibrateNoImpact(cases: readonly CalibrationCase[], options: CalibrationOptions = {}): CalibratedRates {
  const audited = { passedA: zeroOutcomes(), passedB: zeroOutcomes() };
  let passA = 0;
  let passB = 0;
  let onlyA = 0;
  let onlyB = 0;
  for (const c of cases) {
    if (c.a) passA++;
    if (c.b) passB++;
    if (c.a === c.b) continue;
    if (c.a) onlyA++;
    else onlyB++;
    if (c.ab) audited[c.a ? "passedA" : "passedB"][OUTCOME_KEY[c.ab]]++;
  }
  return calibrateCounts({ n: cases.length, passA, passB, onlyA, onlyB, audited }, options);
}

/** The calibration rule on counts. Throws RangeError when the counts cannot describe one suite. */
export function calibrateCounts(counts: CalibrationCounts, options: CalibrationOptions = {}): CalibratedRates {
  const tie = options.tie ?? "both-impacted";
  const extrapolate = options.extrapolate ?? false;
  const z = options.z ?? Z95;
  const { n, passA, passB, audited } = counts;
  const mA = total(audited.passedA);
  const mB = total(audited.passedB);
  checkCounts(counts, mA, mB, extrapolate);
  // Tie credit per stratum: does a tie leave A (resp. B) no-impact?
  const tieA = (stratum: "passedA" | "passedB") => (tie === "both-no-impact" || (tie === "keep" && stratum === "passedA") ? 1 : 0);
  const tieB = (stratum: "passedA" | "passedB") => (tie === "both-no-impact" || (tie === "keep" && stratum === "passedB") ? 1 : 0);
  const passesA = (s: "passedA" | "passedB") => audited[s].aBetter + tieA(s) * audited[s].tie;
  const passesB = (s: "passedA" | "passedB") => audited[s].bBetter + tieB(s) * audited[s].tie;
  let calA: number;
  let calB: number;
  if (!extrapolate) {
    calA = passA - mA + passesA("passedA") + passesA("passedB");
    calB = passB - mB + passesB("passedA") + passesB("passedB");
  } else {
    const onlyA = counts.onlyA!;
    const onlyB = counts.onlyB!;
    const scale = (stratum: "passedA" | "passedB", passes: number, raw: number) => {
      const size = stratum === "passedA" ? onlyA : onlyB;
      const m = stratum === "passedA" ? mA : mB;
      return m === 0 ? raw : (size * passes) / m;
    };
    calA = passA - onlyA + scale("passedA", passesA("passedA"), onlyA) + scale("passedB", passesA("passedB"), 0);
    calB = passB - onlyB + scale("passedA", passesB("passedA"), 0) + scale("passedB", passesB("passedB"), onlyB);
  }
  return {
    n,
    tie,
    extrapolated: extrapolate,
    raw: { a: wilson(passA, n, z), b: wilson(passB, n, z) },
    calibrated: { a: wilson(calA, n, z), b: wilson(calB, n, z) },
    audited: { ...audited, total: mA + mB },
  };
}

const OUTCOME_KEY: Record<AbOutcome, keyof AbOutcomeCounts> = { A_better: "aBetter", B_better: "bBetter", tie: "tie" };

function zeroOutcomes(): AbOutcomeCounts {
  return { aBetter: 0, tie: 0, bBetter: 0 };
}

function total(o: AbOutcomeCounts): number {
  return o.aBetter + o.tie + o.bBetter;
}

function checkCounts(counts: CalibrationCounts, mA: number, mB: number, extrapolate: boolean): void {
  const { n, passA, passB, onlyA, onlyB, audited } = counts;
  const whole = (name: string, v: number | undefined) => {
    if (v !== undefined && (!Number.isInteger(v) || v < 0)) throw new RangeError(`${name} must be a whole number ≥ 0, got ${v}`);
  };
  whole("n", n);
  whole("passA", passA);
  whole("passB", passB);
  whole("onlyA", onlyA);
  whole("onlyB", onlyB);
  for (const s of ["passedA", "passedB"] as const) for (const k of ["aBetter", "tie", "bBetter"] as const) whole(`audited.${s}.${k}`, audited[s][k]);
  if (passA > n || passB > n) throw new RangeError(`pass counts (${passA}, ${passB}) exceed n = ${n}`);
  if (mA > passA) throw new RangeError(`${mA} audited cases passed A, but only ${passA} cuts passed A`);
  if (mB > passB) throw new RangeError(`${mB} audited cases passed B, but only ${passB} cuts passed B`);
  if (onlyA !== undefined && onlyB !== undefined) {
    if (passA - onlyA !== passB - onlyB || passA - onlyA < 0)
      throw new RangeError(`discordant cells do not fit: passA − onlyA (${passA - onlyA}) must equal passB − onlyB (${passB - onlyB})`);
    if (passA + onlyB > n) throw new RangeError(`passA + onlyB (${passA + onlyB}) exceeds n = ${n}`);
    if (mA > onlyA || mB > onlyB) throw new RangeError(`more audited cases (${mA}, ${mB}) than discordant cases (${onlyA}, ${onlyB})`);
  } else if (extrapolate) {
    throw new RangeError("extrapolate needs the raw discordant cells onlyA and onlyB");
  }
}

import type { RunView } from "./eval-types";

const one = (x: number) => String(Math.round(x));
const k2 = (x: number) => x.toFixed(2);

/**
 * How far the verdicts behind the headline figures can be trusted, shown beside them: the
 * dependency judge's agreement with careful reading of the gold set (gold/judge-calibration.json,
 * `npm run calibrate`) — accuracy with its Wilson interval and Cohen's κ on the three verdicts, the
 * binary question (impact or not) after it — and whether it meets the goal (≥ 85%,
 * κ ≥ 0.6). An LLM-judged run is not calibrated here; without a report it says so.
 */
export function JudgeCalibrationLine({ calibration }: { calibration: RunView["calibration"] }) {
  const c = calibration;
  if (c.state === "llm")
    return (
      <p className="calibration-line calibration-warn" data-testid="judge-calibration">
        Judge agreement with careful reading: this run used the LLM judge: not calibrated.
      </p>
    );
  if (c.state === "absent")
    return (
      <p className="calibration-line calibration-warn" data-testid="judge-calibration">
        Judge agreement with careful reading: not calibrated yet (no gold/judge-calibration.json; <span className="mono">npm run calibrate</span> writes it).
      </p>
    );
  if (c.state === "invalid")
    return (
      <p className="calibration-line calibration-warn" data-testid="judge-calibration">
        Judge agreement with careful reading: unknown — {c.message}.
      </p>
    );
  const h = c.holdout;
  const t = c.tuned;
  return (
    <p className={`calibration-line${c.meetsGoal ? "" : " calibration-warn"}`} data-testid="judge-calibration">
      Judge agreement with careful reading:{" "}
      <strong>
        {one(h.accuracy.pct)}% [{one(h.accuracy.ci95[0])}, {one(h.accuracy.ci95[1])}], κ {k2(h.kappa.value)}
      </strong>{" "}
      on {h.units} held-out gold views
      {h.stale > 0 ? ` (${h.stale} stale left out)` : ""} (no impact / restorable / impact) · impact or not: {one(h.binary.accuracy.pct)}%, κ{" "}
      {k2(h.binary.kappa.value)} · on the {t.units} views its rules were chosen with: {one(t.accuracy.pct)}%, κ {k2(t.kappa.value)} · judge{" "}
      <span className="mono">{c.judgeVersion}</span>
      {c.meetsGoal ? "" : " — below the goal of 85% agreement and κ 0.6: read the no-impact figures with that in mind"}.
    </p>
  );
}

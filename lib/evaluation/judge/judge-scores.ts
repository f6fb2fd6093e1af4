import type { Session } from "../../trace/model";
import type { CheckedDependency } from "./types";
import type { DimensionScore, JudgeDimension } from "./verdict-schema";

/**
 * Deterministic mapping from dependency counts to Listing 3's dimension scores.
 *
 * Each dimension looks at a subset of the dependencies and a loss count:
 * - goal_retention — constraints and values the user supplied (user messages): the task's goal,
 *   constraints and corrections; loss = missing ones;
 * - evidence_retention — values planted by tool results (observed evidence); loss = missing ones;
 * - continuation_readiness — values the future uses before the next user request (the immediate
 *   continuation); loss = missing ones;
 * - compression_safety — all dependencies; a loss the policy made unrecoverable counts 1, a value
 *   that sits in a sidecar no view text names counts 0.5 (the payload exists but the view gives no way to it).
 * Score: 5 when nothing is lost (or the subset is empty); otherwise ⌊5 × (1 − loss / size)⌋
 * capped at 4, so any loss costs at least a point. Verdict: 5 pass, 3–4 warn, 0–2 fail.
 * overall_score is the mean of the four scores (0–5, two decimals).
 */
export function dimensionScore(size: number, loss: number): DimensionScore {
  if (size === 0 || loss <= 0) return { score: 5, verdict: "pass" };
  const score = Math.max(0, Math.min(4, Math.floor(5 * (1 - loss / size))));
  return { score, verdict: score >= 3 ? "warn" : "fail" };
}

export function scoreDimensions(session: Session, checked: readonly CheckedDependency[]): Record<JudgeDimension, DimensionScore> {
  const missing = (d: CheckedDependency) => d.status === "lost";
  const roleOf = (d: CheckedDependency) => session.messages[d.plantedAt.message]?.role;
  const partOf = (d: CheckedDependency) => session.messages[d.plantedAt.message]?.parts[d.plantedAt.part];
  const goal = checked.filter((d) => d.kind === "constraint" || roleOf(d) === "user");
  const evidence = checked.filter((d) => partOf(d)?.type === "tool_result");
  const next = checked.filter((d) => d.usedBeforeNextRequest);
  const safetyLoss = checked.reduce((sum, d) => sum + (!missing(d) ? 0 : d.category === "recovery_routing" ? 0.5 : 1), 0);
  return {
    goal_retention: dimensionScore(goal.length, goal.filter(missing).length),
    evidence_retention: dimensionScore(evidence.length, evidence.filter(missing).length),
    continuation_readiness: dimensionScore(next.length, next.filter(missing).length),
    compression_safety: dimensionScore(checked.length, safetyLoss),
  };
}

export function overallScore(scores: Record<JudgeDimension, DimensionScore>): number {
  const values = Object.values(scores).map((s) => s.score);
  return Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 100) / 100;
}

import type { PlanDecision } from "../render-plan";

/**
 * The sanity check's spending order (seed 000, planner contract rule 5 and "light compression
 * bias"): obsolete trace is always collected; folds are spent only while the plan is short of its
 * target, safest first — stable bodies with no known dependency (tool-level), then resolved whole
 * turns, then dependency-bearing bodies (recoverable) — and within a tier the coldest first: the
 * object the prefix last referred to longest ago (`lastUse`, see references.ts; its own first
 * message when nothing referred to it), so a result the agent keeps returning to goes after one it
 * never mentioned again, whatever their ages. Ties go oldest first.
 * The target sits above the rehearsal's compression threshold (30%) so a plan that reaches it
 * commits; a plan that cannot reach it stays pending rather than touching kept objects.
 *
 * Tier 3 (large working-set bodies) is a reserve: it is opened only when every safer action
 * together is estimated to remove less than `reserveBelow` tokens — i.e. only to let a plan that
 * would otherwise stay pending commit — and spent only up to `reserveBelow`, largest first, so the
 * fewest of the newest objects are hidden to clear it.
 *
 * A whole-turn fold subsumes the tool-level actions inside the turn: it is charged only the
 * tokens those did not already save, and they leave the plan (one object, one action).
 */
export interface Candidate {
  decision: PlanDecision;
  /** Estimated tokens the action removes from the view (after its pointer or hints). */
  saves: number;
  /** 0 obsolete trace, 1 stable tool body, 1.5 resolved whole turn, 2 dependency-bearing body, 3 working-set body (reserve). */
  tier: number;
  /** First message of the object (older first). */
  at: number;
  /** The last message of the prefix that referred to the object (default `at`): colder first. */
  lastUse?: number;
  /** The enclosing conversation object of a function object. */
  parent?: string;
}

export interface Selection {
  decisions: PlanDecision[];
  /** Estimated tokens the selected plan removes. */
  saved: number;
}

/** Tiers at or above this are the reserve. */
export const RESERVE_TIER = 3;

export function selectActions(candidates: readonly Candidate[], target: number, minSavings: number, reserveBelow = 0): Selection {
  const taken: Candidate[] = [];
  let saved = 0;
  for (const c of candidates) {
    if (c.tier !== 0) continue;
    taken.push(c);
    saved += Math.max(0, c.saves);
  }
  const coldness = (c: Candidate) => c.lastUse ?? c.at;
  const reserve = (c: Candidate) => c.tier >= RESERVE_TIER;
  const folds = candidates
    .filter((c) => c.tier !== 0)
    .sort((a, b) => a.tier - b.tier || (reserve(a) ? b.saves - a.saves : coldness(a) - coldness(b)) || a.at - b.at);
  const foldedTurns = new Set<string>();
  for (const c of folds) {
    if (saved >= target) break;
    if (reserve(c) && saved >= reserveBelow) break;
    if (c.decision.kind === "conversation") {
      const inside = taken.filter((t) => t.parent === c.decision.id);
      const extra = c.saves - inside.reduce((sum, t) => sum + Math.max(0, t.saves), 0);
      if (extra < minSavings) continue;
      foldedTurns.add(c.decision.id);
      for (const t of inside) taken.splice(taken.indexOf(t), 1);
      taken.push(c);
      saved += extra;
      continue;
    }
    if (c.saves < minSavings || (c.parent && foldedTurns.has(c.parent))) continue;
    taken.push(c);
    saved += c.saves;
  }
  const order = (c: Candidate) => (c.decision.kind === "conversation" ? 0 : c.tier === 0 ? 1 : 2);
  const decisions = taken.sort((a, b) => order(a) - order(b) || a.at - b.at).map((c) => c.decision);
  return { decisions, saved };
}

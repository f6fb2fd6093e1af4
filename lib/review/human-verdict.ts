import type { CheckedDependency, DependencyStatus } from "../evaluation/judge/types";
import type { FailureCategory } from "../scenario/failure-categories";
import type { CutRef, DependencyLabel } from "./label-schema";

/**
 * The human no-impact verdict of one reviewer for one cut × policy (issue #5: "the result is the
 * human verdict for that cut"). What the future needed is the judge's candidates the reviewer did
 * not reject plus the dependencies the reviewer added; the projection is no-impact when none of
 * them is lost from the policy's view (visible or restorable, exactly as lib/evaluation checkView
 * decides). So the same labels give different verdicts per policy, and confirming a dependency a
 * projection lost flips that policy's verdict to impacted.
 *
 * Candidate labels are matched to candidates by value (ids are renumbered when a cut is
 * re-extracted; values are not). A candidate the reviewer left undecided counts as `unreviewed`
 * (default: confirmed, since the studio pre-fills the judge's candidates; pass "reject" to count
 * only what a person affirmed).
 */
export interface HumanVerdictInput {
  reviewer: string;
  ref: CutRef;
  policy: string;
  /** Current (latest, unretracted) dependency labels; other reviewers' and cuts' are ignored. */
  labels: readonly DependencyLabel[];
  /** The judge's candidates checked against this policy's view (`checkView`). */
  candidates: readonly CheckedDependency[];
  /** The reviewer's added dependencies checked against the same view (`checkAddedDependencies`). */
  added: readonly CheckedDependency[];
  unreviewed?: "confirm" | "reject";
}

export interface NeededDependency {
  id: string;
  value: string;
  source: "judge" | "human";
  status: DependencyStatus;
  /** Table 7 category of a missing dependency: the reviewer's type when given, else the judge's. */
  category?: FailureCategory;
  labelId?: string;
}

export interface HumanVerdict {
  reviewer: string;
  sessionId: string;
  cut: number;
  policy: string;
  noImpact: boolean;
  needed: NeededDependency[];
  rejected: number;
  unreviewed: number;
}

export function deriveHumanVerdict(input: HumanVerdictInput): HumanVerdict {
  const { reviewer, ref, policy } = input;
  const mine = input.labels.filter(
    (l) => l.reviewer === reviewer && !l.retracted && l.ref.sessionId === ref.sessionId && l.ref.cut === ref.cut && l.ref.runId === ref.runId,
  );
  const byValue = new Map(mine.filter((l) => l.decision !== "add").map((l) => [l.value!, l]));
  const needed: NeededDependency[] = [];
  let rejected = 0;
  let unreviewed = 0;
  for (const candidate of input.candidates) {
    const label = byValue.get(candidate.value);
    if (!label) unreviewed++;
    if (label?.decision === "reject" || (!label && input.unreviewed === "reject")) {
      if (label) rejected++;
      continue;
    }
    needed.push(entry(candidate, "judge", label));
  }
  const addedLabels = new Map(mine.filter((l) => l.decision === "add").map((l) => [`human:${l.labelId}`, l]));
  for (const dependency of input.added) {
    const label = addedLabels.get(dependency.id);
    if (label) needed.push(entry(dependency, "human", label));
  }
  return { reviewer, sessionId: ref.sessionId, cut: ref.cut, policy, noImpact: needed.every((d) => d.status !== "lost"), needed, rejected, unreviewed };
}

function entry(d: CheckedDependency, source: NeededDependency["source"], label: DependencyLabel | undefined): NeededDependency {
  const category = d.status === "lost" ? (label?.type ?? d.category) : undefined;
  return { id: d.id, value: d.value, source, status: d.status, ...(category ? { category } : {}), ...(label ? { labelId: label.labelId } : {}) };
}

/** Key of a cut × policy, shared with judge records (`sessionId@cut:policy`). */
export function verdictKey(sessionId: string, cut: number, policy: string): string {
  return `${sessionId}@${cut}:${policy}`;
}

export interface ConsensusVerdict {
  key: string;
  /** Majority verdict; undefined when reviewers split evenly (such cuts are left out of comparisons). */
  noImpact: boolean | undefined;
  reviewers: number;
}

/** One reference verdict per cut × policy from several reviewers: the majority, ties undecided. */
export function consensusVerdicts(verdicts: readonly HumanVerdict[]): Map<string, ConsensusVerdict> {
  const tally = new Map<string, { yes: number; no: number }>();
  for (const v of verdicts) {
    const key = verdictKey(v.sessionId, v.cut, v.policy);
    const t = tally.get(key) ?? { yes: 0, no: 0 };
    if (v.noImpact) t.yes++;
    else t.no++;
    tally.set(key, t);
  }
  const out = new Map<string, ConsensusVerdict>();
  for (const [key, { yes, no }] of tally) out.set(key, { key, noImpact: yes === no ? undefined : yes > no, reviewers: yes + no });
  return out;
}

import type { AbSides } from "../../evaluation/llm-judge/ab-packet";
import type { CutRef } from "../label-schema";

/**
 * Review queue items: what a reviewer is shown. Ids are deterministic, so rebuilding a queue from
 * the same evaluation gives the same items and labels find their item again (`itemIdForLabel`).
 */
export const QUEUES = ["dependency", "failure_category", "ab", "view_verdict"] as const;
export type QueueKind = (typeof QUEUES)[number];

interface BaseItem {
  id: string;
  ref: CutRef;
}

/** A cut: retained prefix, real future, the judge's candidates pre-filled. */
export interface DependencyItem extends BaseItem {
  queue: "dependency";
}

/** An impacted cut × policy: the projected view, the diff and the judge's evidence. */
export interface FailureCategoryItem extends BaseItem {
  queue: "failure_category";
  policy: string;
  /** The judges that found an impact (`dependency`, `llm:<model>`). */
  judges: string[];
}

/** Why two projections of a cut are worth a person's comparison. */
export type AbReason = { type: "policies-disagree"; judge: string } | { type: "judges-disagree"; judges: [string, string] };

/** Two projections of a cut, sides randomised (the mapping stays hidden from the reviewer). */
export interface AbItem extends BaseItem {
  queue: "ab";
  sides: AbSides;
  reasons: AbReason[];
}

/**
 * One stored view of a cut (a gold unit of the judge's calibration set), labelled blind:
 * no_impact / restorable / impact. The policy, budget and digest name the view (a label carries
 * them, so it never moves to another view of the cut); the labeling screen never shows the policy.
 */
export interface ViewVerdictItem extends BaseItem {
  queue: "view_verdict";
  policy: string;
  /** The unit's budget key (`match-self-gc`, `budget-40`); absent at the policy's own settings. */
  budget?: string;
  viewDigest: string;
  /** The gold unit's id (`g-…`), as the gold file names it. */
  unitId: string;
  /** Digests of the view's sidecars: the only things a `restorable` label may name. */
  sidecars: string[];
}

export type QueueItem = DependencyItem | FailureCategoryItem | AbItem | ViewVerdictItem;

/** `runId|sessionId@cut`: the cut part of every item id. */
export function cutKey(ref: CutRef): string {
  return `${ref.runId ?? ""}|${ref.sessionId}@${ref.cut}`;
}

export function dependencyItemId(ref: CutRef): string {
  return `dependency:${cutKey(ref)}`;
}

export function failureItemId(ref: CutRef, policy: string): string {
  return `failure_category:${cutKey(ref)}:${policy}`;
}

/** The pair is unordered: (x, y) and (y, x) are one item. */
export function abItemId(ref: CutRef, first: string, second: string): string {
  return `ab:${cutKey(ref)}:${[first, second].sort().join("|")}`;
}

/** A view of a cut a person labels blind (a gold-set unit): one per policy, budget and view. */
export function viewVerdictItemId(ref: CutRef, policy: string, budget: string | undefined, viewDigest: string): string {
  return `view_verdict:${cutKey(ref)}:${policy}:${budget ?? ""}:${viewDigest.slice(0, 16)}`;
}

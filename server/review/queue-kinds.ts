import type { Overlap, QueueKind } from "@/lib/review";

/**
 * Queue kinds as stored (`ReviewQueue.kind`, the studio's words) and as lib/review names them.
 * One queue holds one kind of item, so a queue's overlap is the lib Overlap for its kind.
 */
export const QUEUE_KINDS = ["dependency", "failure", "ab", "calibration"] as const;
/** The kinds built from an evaluation run's results (a calibration queue is imported from a gold file). */
export const RUN_QUEUE_KINDS = ["dependency", "failure", "ab"] as const;
export type ReviewQueueKind = (typeof QUEUE_KINDS)[number];

export function libKind(kind: ReviewQueueKind): QueueKind {
  return kind === "failure" ? "failure_category" : kind === "calibration" ? "view_verdict" : kind;
}

export function isQueueKind(value: string): value is ReviewQueueKind {
  return (QUEUE_KINDS as readonly string[]).includes(value);
}

/** lib Overlap for a queue of one kind (the other kinds never occur in it; 1 keeps checkOverlap happy). */
export function overlapFor(kind: ReviewQueueKind, overlap: number): Overlap {
  return { dependency: 1, failure_category: 1, ab: 1, view_verdict: 1, [libKind(kind)]: overlap };
}

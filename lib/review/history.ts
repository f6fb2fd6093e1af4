import type { Clock } from "./clock";
import type { ReviewLabel } from "./label-schema";

/**
 * Label versioning: a label thread (`labelId`) is an append-only list of versions 1, 2, 3, …, each
 * superseding the one before. Why: reviewers change their minds and undo, and the agreement numbers
 * must be reproducible from what was said when — so nothing is overwritten or deleted.
 *
 * Invariants enforced by `appendLabel` (a `LabelHistoryError` otherwise):
 * - (labelId, version) is unique, and version n > 1 needs version n − 1 already in the thread;
 * - a thread keeps its kind, its reviewer and its item (a reviewer cannot revise another's label);
 * - versions of a thread are never earlier in time than the version they supersede.
 */
export class LabelHistoryError extends Error {
  constructor(
    readonly code: "duplicate-version" | "missing-previous" | "changed-thread",
    message: string,
  ) {
    super(message);
    this.name = "LabelHistoryError";
  }
}

/** Versions by thread, each list in version order. */
export type LabelHistory = ReadonlyMap<string, readonly ReviewLabel[]>;

/** Stable key of the thing a label is about; a thread may not move to another item. */
export function labelSubject(label: ReviewLabel): string {
  const cut = `${label.ref.runId ?? ""}|${label.ref.sessionId}@${label.ref.cut}`;
  switch (label.kind) {
    case "dependency":
      return `dependency:${cut}:${label.decision === "add" ? "add" : label.dependencyId}`;
    case "cut_review":
      return `cut_review:${cut}`;
    case "failure_category":
      return `failure_category:${cut}:${label.policy}`;
    case "ab":
      return `ab:${cut}:${[label.sides.A, label.sides.B].sort().join("|")}`;
    case "view_verdict":
      return `view_verdict:${cut}:${label.policy}:${label.budget ?? ""}:${label.viewDigest}`;
  }
}

/** Returns a new history with `label` appended; the input history is not modified. */
export function appendLabel(history: LabelHistory, label: ReviewLabel): LabelHistory {
  const thread = history.get(label.labelId) ?? [];
  checkAppend(thread, label);
  const next = new Map(history);
  next.set(label.labelId, [...thread, label]);
  return next;
}

/**
 * Appends `labels` in the order given, with the same checks as `appendLabel`, to a copy of
 * `history` (the input is not modified). Linear in the labels: one map is filled in place and a
 * thread of `history` is copied once, when first extended (`appendLabel` per label copies the whole
 * map each time — quadratic for a large import). A label that may not follow its thread is handed
 * to `onRefused` with its LabelHistoryError and left out, as a caught `appendLabel` would leave it.
 */
export function appendLabels(
  history: LabelHistory,
  labels: Iterable<ReviewLabel>,
  onRefused: (label: ReviewLabel, error: LabelHistoryError) => void,
): LabelHistory {
  const next = new Map(history);
  const mine = new Set<string>();
  for (const label of labels) {
    const thread = next.get(label.labelId) ?? [];
    try {
      checkAppend(thread, label);
    } catch (error) {
      if (!(error instanceof LabelHistoryError)) throw error;
      onRefused(label, error);
      continue;
    }
    if (mine.has(label.labelId)) (thread as ReviewLabel[]).push(label);
    else {
      next.set(label.labelId, [...thread, label]);
      mine.add(label.labelId);
    }
  }
  return next;
}

/**
 * Throws the LabelHistoryError `appendLabel` names when `label` may not follow `thread`. Every
 * thread is built through this check, so `thread[i].version === i + 1`: a stored version is found
 * by index, not by scanning the thread (which made long threads quadratic).
 */
function checkAppend(thread: readonly ReviewLabel[], label: ReviewLabel): void {
  const last = thread.at(-1);
  if (thread[label.version - 1]?.version === label.version) {
    throw new LabelHistoryError("duplicate-version", `label ${label.labelId} already has version ${label.version}`);
  }
  if (label.version !== thread.length + 1) {
    throw new LabelHistoryError(
      "missing-previous",
      `label ${label.labelId} version ${label.version} supersedes version ${label.version - 1}, which is not stored (latest: ${last?.version ?? "none"})`,
    );
  }
  if (last) {
    if (last.kind !== label.kind || last.reviewer !== label.reviewer || labelSubject(last) !== labelSubject(label)) {
      throw new LabelHistoryError("changed-thread", `label ${label.labelId} version ${label.version} changes its kind, reviewer or item`);
    }
    if (Date.parse(label.createdAt) < Date.parse(last.createdAt)) {
      throw new LabelHistoryError("changed-thread", `label ${label.labelId} version ${label.version} is dated before version ${last.version}`);
    }
  }
}

/**
 * Builds a history from labels in any order (sorted by thread and version first), with the same
 * checks as `appendLabel`. Linear after the sort: one map is filled in place (appending through
 * `appendLabel` copied the whole map per label — quadratic, and the studio builds a queue's history
 * on every open and progress refresh).
 */
export function buildHistory(labels: Iterable<ReviewLabel>): LabelHistory {
  const sorted = [...labels].sort((a, b) => (a.labelId < b.labelId ? -1 : a.labelId > b.labelId ? 1 : a.version - b.version));
  const history = new Map<string, ReviewLabel[]>();
  for (const label of sorted) {
    const thread = history.get(label.labelId);
    checkAppend(thread ?? [], label);
    if (thread) thread.push(label);
    else history.set(label.labelId, [label]);
  }
  return history;
}

/** The latest version of every thread that is not retracted: what counts now. */
export function currentLabels(history: LabelHistory): ReviewLabel[] {
  const out: ReviewLabel[] = [];
  for (const thread of history.values()) {
    const last = thread.at(-1);
    if (last && !last.retracted) out.push(last);
  }
  return out;
}

/** Every version ever stored, thread by thread (for export). */
export function allVersions(history: LabelHistory): ReviewLabel[] {
  return [...history.values()].flat();
}

type Changes<L extends ReviewLabel> = Partial<Omit<L, "kind" | "labelId" | "version" | "supersedes" | "reviewer" | "createdAt">>;

/** The next version of a thread: same thread and reviewer, `changes` applied, dated by the clock. */
export function reviseLabel<L extends ReviewLabel>(previous: L, changes: Changes<L>, clock: Clock): L {
  return { ...previous, ...changes, version: previous.version + 1, supersedes: previous.version, createdAt: new Date(clock.now()).toISOString() };
}

/** Undo: a new version that withdraws the label. */
export function retractLabel<L extends ReviewLabel>(previous: L, clock: Clock): L {
  return reviseLabel(previous, { retracted: true } as Changes<L>, clock);
}

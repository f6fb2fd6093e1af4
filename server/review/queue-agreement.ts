import {
  AB_PREFERENCES,
  abRatings,
  calibrateWithReviewers,
  consensusVerdicts,
  currentLabels,
  DECISION_CATEGORIES,
  decisionRatings,
  FAILURE_RATING_CATEGORIES,
  failureRatings,
  interReviewerAgreement,
  judgeVersusHuman,
  noImpactRates,
  VERDICT_CATEGORIES,
  verdictRatings,
  VIEW_VERDICT_CATEGORIES,
  viewVerdictRatings,
  type Clock,
  type InterReviewerAgreement,
  type JudgeAgreement,
  type PolicyRates,
} from "@/lib/review";
import type { Db } from "../db/client";
import { calibrateQueueJudge, type JudgeCalibration } from "./calibration-agreement";
import { humanVerdicts } from "./human-verdicts";
import { loadJudgedCuts } from "./judged-cuts";
import { loadHistoryCached } from "./label-cache";
import type { ReviewQueueKind } from "./queue-kinds";
import { loadQueue, loadQueueMeta } from "./queue-state";

/** What the agreement panel shows for one queue (plain data: no Prisma rows, no functions). */
export interface QueueAgreement {
  queueId: string;
  kind: ReviewQueueKind;
  /** Inter-reviewer agreement on the queue's main judgement (verdicts, categories or A/B answers). */
  reviewers: InterReviewerAgreement<string | boolean>;
  /** Dependency queues: agreement on confirm / reject of the judge's candidates. */
  decisions?: InterReviewerAgreement<string>;
  /** Dependency queues: each automatic judge against the human consensus. */
  judges?: JudgeAgreement[];
  /** Dependency queues: no-impact per policy from people, beside the judge's. */
  rates?: PolicyRates[];
  /** A/B queues: seed 000's calibrated no-impact per policy pair, with people as the A/B judge. */
  calibration?: { a: string; b: string; rates: Omit<ReturnType<typeof calibrateWithReviewers>, "cases">; cases: number }[];
  /** Calibration queues: the deterministic judge against the queue's labels (accuracy, κ, confusion, disagreements). */
  judgeCalibration?: JudgeCalibration;
  humanVerdicts: number;
  spanProblems: number;
}

/**
 * The agreement of a queue, memoised per queue by a cheap version of its labels (their row count:
 * labels are append-only, a retraction or an import is a new row), so repeated
 * refreshes (the labeling screen, the run's human-labels panel, several viewers) reuse one
 * computation until a label is added. Bounded: the least recently used queue goes first.
 *
 * At most one computation per queue runs at a time. A request that arrives while one is running
 * for an older version gets the last finished figure (at most STALE_MS old) instead of starting
 * another; and once requests have overlapped like that, the next computation waits until BUSY_GAP_MS
 * after the last one ended, so under many concurrent reviewers the figure lags by a second or two
 * rather than recomputing over every reviewed cut after every save (the work grows with the labels
 * and holds the event loop that saves share). Requests that do not overlap — one screen, one
 * viewer, a test — always get the figure of the labels as they are now.
 */
export async function getQueueAgreement(db: Db, queueId: string, clock: Clock): Promise<QueueAgreement | null> {
  const version = await labelsVersion(db, queueId);
  if (version === null) {
    memo.delete(queueId);
    return null;
  }
  const entry = memo.get(queueId) ?? { busy: false };
  memo.delete(queueId);
  memo.set(queueId, entry);
  if (memo.size > MEMO_SIZE) memo.delete(memo.keys().next().value!);
  if (entry.done?.version === version) return entry.done.agreement;
  if (entry.running?.version === version) return entry.running.agreement;
  const fresh = entry.done && performance.now() - entry.done.at < STALE_MS;
  if (fresh && entry.running) {
    entry.busy = true;
    return entry.done!.agreement;
  }
  if (fresh && entry.busy && performance.now() - entry.done!.at < BUSY_GAP_MS) return entry.done!.agreement;
  entry.busy = false;
  const agreement = computeQueueAgreement(db, queueId, clock);
  const running = { version, agreement };
  entry.running = running;
  agreement.then(
    (value) => {
      if (entry.running === running) entry.running = undefined;
      entry.done = { version, agreement: Promise.resolve(value), at: performance.now() };
    },
    () => {
      if (entry.running === running) entry.running = undefined;
    },
  );
  return agreement;
}

const MEMO_SIZE = 100;
/** How old a figure handed out while a newer one is being computed may be. */
const STALE_MS = 5_000;
/** After overlapping requests, the least time between the end of one computation and the next. */
const BUSY_GAP_MS = 1_000;
interface Computed {
  version: string;
  agreement: Promise<QueueAgreement | null>;
}
/** `at`: performance.now() when the computation ended (a bound on this process's own work, not the domain clock). */
const memo = new Map<string, { done?: Computed & { at: number }; running?: Computed; busy: boolean }>();

/**
 * Null when the queue does not exist; otherwise a key that changes whenever a label row is added:
 * the number of label rows this process has caught up with (rows are only ever added, so the count
 * is a version; label-cache.ts reads it in one statement, with the rows added since).
 */
async function labelsVersion(db: Db, queueId: string): Promise<string | null> {
  if (!(await loadQueueMeta(db, queueId))) return null;
  return String((await loadHistoryCached(db, queueId)).rows);
}

async function computeQueueAgreement(db: Db, queueId: string, clock: Clock): Promise<QueueAgreement | null> {
  const queue = await loadQueue(db, queueId, clock);
  if (!queue) return null;
  // The history is updated in place as labels arrive: one snapshot serves the whole computation.
  const current = currentLabels(queue.history);
  const base = { queueId, kind: queue.kind, humanVerdicts: 0, spanProblems: 0 };
  if (queue.kind === "failure") return { ...base, reviewers: interReviewerAgreement<string | boolean>(failureRatings(current), FAILURE_RATING_CATEGORIES) };
  if (queue.kind === "calibration" || queue.runId === null) {
    return {
      ...base,
      reviewers: interReviewerAgreement<string | boolean>(viewVerdictRatings(current), VIEW_VERDICT_CATEGORIES),
      judgeCalibration: await calibrateQueueJudge(db, queueId, queue.items, current),
    };
  }
  const rows = await loadJudgedCuts(db, queue.runId);
  if (queue.kind === "ab") {
    const pairs = new Map<string, [string, string]>();
    for (const item of queue.items)
      if (item.queue === "ab") pairs.set([item.sides.A, item.sides.B].sort().join("|"), [item.sides.A, item.sides.B].sort() as [string, string]);
    const judge = rows[0]?.judge ?? "dependency";
    const calibration = [...pairs.values()].map(([a, b]) => {
      const { cases, ...rates } = calibrateWithReviewers(rows, judge, a, b, current);
      return { a, b, rates, cases: cases.filter((c) => c.ab !== undefined).length };
    });
    return { ...base, reviewers: interReviewerAgreement<string | boolean>(abRatings(current), AB_PREFERENCES), calibration };
  }
  const { verdicts, problems } = await humanVerdicts(db, queue.runId, current);
  const consensus = consensusVerdicts(verdicts);
  const judges = [...new Set(rows.map((r) => r.judge))];
  return {
    ...base,
    reviewers: interReviewerAgreement<string | boolean>(verdictRatings(verdicts), VERDICT_CATEGORIES),
    decisions: interReviewerAgreement<string>(decisionRatings(current), DECISION_CATEGORIES),
    judges: judgeVersusHuman(rows, consensus),
    rates: judges.flatMap((judge) => noImpactRates(rows, consensus, judge)),
    humanVerdicts: verdicts.length,
    spanProblems: problems.length,
  };
}

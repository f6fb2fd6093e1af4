import {
  AB_PREFERENCES, abRatings, calibrateWithReviewers, consensusVerdicts, currentLabels, DECISION_CATEGORIES, decisionRatings, FAILURE_RATING_CATEGORIES, failureRatings,
  interReviewerAgreement, judgeVersusHuman, noImpactRates, VERDICT_CATEGORIES, verdictRatings, type Clock, type InterReviewerAgreement, type JudgeAgreement, type PolicyRates,
} from "@/lib/review";
import type { Db } from "../db/client";
import { humanVerdicts } from "./human-verdicts";
import { loadJudgedCuts } from "./judged-cuts";
import { loadQueue } from "./queue-state";

/** What the agreement panel shows for one queue (plain data: no Prisma rows, no functions). */
export interface QueueAgreement {
  queueId: string;
  kind: "dependency" | "failure" | "ab";
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
  humanVerdicts: number;
  spanProblems: number;
}

/**
 * The agreement of a queue, memoised per queue by a cheap version of its labels (count and latest
 * createdAt / savedAt: labels are append-only, a retraction or an import is a new row), so repeated
 * refreshes (the labeling screen, the run's human-labels panel, several viewers) reuse one
 * computation until a label is added. Bounded: the least recently used queue goes first.
 */
export async function getQueueAgreement(db: Db, queueId: string, clock: Clock): Promise<QueueAgreement | null> {
  const version = await labelsVersion(db, queueId);
  if (version === null) {
    memo.delete(queueId);
    return null;
  }
  const hit = memo.get(queueId);
  memo.delete(queueId);
  if (hit && hit.version === version) {
    memo.set(queueId, hit);
    return hit.agreement;
  }
  const agreement = computeQueueAgreement(db, queueId, clock);
  memo.set(queueId, { version, agreement });
  if (memo.size > MEMO_SIZE) memo.delete(memo.keys().next().value!);
  agreement.catch(() => memo.get(queueId)?.agreement === agreement && memo.delete(queueId));
  return agreement;
}

const MEMO_SIZE = 100;
const memo = new Map<string, { version: string; agreement: Promise<QueueAgreement | null> }>();

/** Null when the queue does not exist; otherwise a key that changes whenever a label row is added. */
async function labelsVersion(db: Db, queueId: string): Promise<string | null> {
  const queue = await db.reviewQueue.findUnique({ where: { id: queueId }, select: { id: true } });
  if (!queue) return null;
  const labels = await db.reviewLabelRow.aggregate({ where: { queueId }, _count: { _all: true }, _max: { createdAt: true, savedAt: true } });
  return `${labels._count._all}|${labels._max.createdAt?.getTime() ?? 0}|${labels._max.savedAt?.getTime() ?? 0}`;
}

async function computeQueueAgreement(db: Db, queueId: string, clock: Clock): Promise<QueueAgreement | null> {
  const queue = await loadQueue(db, queueId, clock);
  if (!queue) return null;
  const current = currentLabels(queue.history);
  const base = { queueId, kind: queue.kind, humanVerdicts: 0, spanProblems: 0 };
  if (queue.kind === "failure") return { ...base, reviewers: interReviewerAgreement<string | boolean>(failureRatings(current), FAILURE_RATING_CATEGORIES) };
  const rows = await loadJudgedCuts(db, queue.runId);
  if (queue.kind === "ab") {
    const pairs = new Map<string, [string, string]>();
    for (const item of queue.items) if (item.queue === "ab") pairs.set([item.sides.A, item.sides.B].sort().join("|"), [item.sides.A, item.sides.B].sort() as [string, string]);
    const judge = rows[0]?.judge ?? "dependency";
    const calibration = [...pairs.values()].map(([a, b]) => {
      const { cases, ...rates } = calibrateWithReviewers(rows, judge, a, b, current);
      return { a, b, rates, cases: cases.filter((c) => c.ab !== undefined).length };
    });
    return { ...base, reviewers: interReviewerAgreement<string | boolean>(abRatings(current), AB_PREFERENCES), calibration };
  }
  const { verdicts, problems } = await humanVerdicts(db, queue.runId, queue.history);
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

import type { Clock, JudgeAgreement, PolicyRates } from "@/lib/review";
import type { Db } from "../db/client";
import { getQueueAgreement } from "./queue-agreement";
import { loadQueue } from "./queue-state";

/**
 * What the evaluation page's "Human labels" section shows for one dependency queue built from the
 * run: how many of its cuts people labeled, and the run's judge against their verdicts (confusion
 * matrix, κ, accuracy with its Wilson interval) with the no-impact rate per policy re-estimated
 * from people beside the judge's. Plain data: no Prisma rows, no functions.
 */
export interface RunLabelQueue {
  id: string;
  name: string;
  /** Cuts in the queue (one item per judged cut). */
  items: number;
  /** Cuts at least one reviewer completed (a current `cut_review`). */
  labeledCuts: number;
  /** Human verdicts: one per reviewer × labeled cut × policy. */
  humanVerdicts: number;
  /** Added spans that no longer match their session (left out of every figure). */
  spanProblems: number;
  judges: JudgeAgreement[];
  rates: PolicyRates[];
}

/**
 * Every dependency queue of an evaluation run, newest first, with its judge-vs-human figures.
 * Queues are kept apart rather than pooled: the same reviewer may label one cut in two queues, and
 * pooling would count that person twice in the consensus. The figures are the queue page's own
 * (server/review/queue-agreement), so both pages always show the same numbers.
 */
export async function getRunHumanLabels(db: Db, runId: string, clock: Clock): Promise<RunLabelQueue[]> {
  const queues = await db.reviewQueue.findMany({ where: { runId, kind: "dependency" }, select: { id: true }, orderBy: [{ createdAt: "desc" }, { id: "asc" }] });
  const out: RunLabelQueue[] = [];
  for (const { id } of queues) {
    const queue = await loadQueue(db, id, clock);
    const agreement = await getQueueAgreement(db, id, clock);
    if (!queue || !agreement) continue; // deleted while we read
    const labeledCuts = queue.items.filter((item) => (queue.state.completions.get(item.id)?.size ?? 0) > 0).length;
    out.push({
      id,
      name: queue.name,
      items: queue.items.length,
      labeledCuts,
      humanVerdicts: agreement.humanVerdicts,
      spanProblems: agreement.spanProblems,
      judges: agreement.judges ?? [],
      rates: agreement.rates ?? [],
    });
  }
  return out;
}

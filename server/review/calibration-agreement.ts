import {
  judgeGoldUnits,
  summarizeCalibration,
  type CalibrationResult,
  type JudgedUnit,
  type ResolvedTrace,
} from "@/lib/evaluation/calibration/calibrate-judge";
import { GoldUnitSchema, type GoldUnit } from "@/lib/evaluation/calibration/gold";
import { referenceVerdicts, type QueueItem, type ReviewLabel } from "@/lib/review";
import type { Db } from "../db/client";
import { loadAnalyzedSession } from "../trace/session/load-analyzed-session";

/**
 * The deterministic dependency judge against a calibration queue's labels (lib/evaluation/calibration:
 * the same computation as `tracefold eval --calibrate`): each item's stored view is judged as it
 * is — no policy runs — and compared with the verdict its current labels give (the majority;
 * items whose labellers tie are `split` and left out). The judge's reading depends only on the
 * units, so it is computed once per queue and process; each label change only re-summarises.
 */
export type JudgeCalibration = Omit<CalibrationResult, "judged"> & { split: number; unlabelled: number };

export async function calibrateQueueJudge(db: Db, queueId: string, items: readonly QueueItem[], current: readonly ReviewLabel[]): Promise<JudgeCalibration> {
  const judged = await judgedUnits(db, queueId);
  const { verdicts, split } = referenceVerdicts(current);
  const unitOf = new Map(items.flatMap((i) => (i.queue === "view_verdict" ? [[i.unitId, i.id] as const] : [])));
  const pairs = judged.judged.flatMap((j) => {
    const gold = verdicts.get(unitOf.get(j.unit) ?? "");
    return gold ? [{ ...j, gold }] : [];
  });
  const { judged: _all, ...result } = summarizeCalibration(pairs, judged.stale);
  return { ...result, split: split.length, unlabelled: items.length - verdicts.size - split.length };
}

const judgedByQueue = new Map<string, Promise<{ judged: JudgedUnit[]; stale: CalibrationResult["stale"] }>>();

/**
 * Starts judging a calibration queue's units (right after its import), so the first open of the
 * queue page finds the judge's side ready or under way: the whole gold set takes seconds.
 */
export function warmQueueJudge(db: Db, queueId: string): Promise<unknown> {
  return judgedUnits(db, queueId);
}

function judgedUnits(db: Db, queueId: string) {
  let hit = judgedByQueue.get(queueId);
  if (!hit) {
    hit = judgeQueue(db, queueId);
    hit.catch(() => judgedByQueue.get(queueId) === hit && judgedByQueue.delete(queueId));
    judgedByQueue.set(queueId, hit);
    if (judgedByQueue.size > 20) judgedByQueue.delete(judgedByQueue.keys().next().value!);
  }
  return hit;
}

/**
 * Judges every unit of the queue (each stored session loaded once), one unit per turn of the event
 * loop: the whole gold set is seconds of work, and the studio keeps answering requests meanwhile.
 */
async function judgeQueue(db: Db, queueId: string): Promise<{ judged: JudgedUnit[]; stale: CalibrationResult["stale"] }> {
  const rows = await db.reviewItem.findMany({ where: { queueId, unit: { not: null } }, orderBy: { position: "asc" }, select: { sessionId: true, unit: true } });
  const units = rows.map((r) => ({ sessionId: r.sessionId, unit: GoldUnitSchema.parse(JSON.parse(r.unit!)) as unknown as GoldUnit }));
  const traces = new Map<string, ResolvedTrace | undefined>();
  for (const sessionId of new Set(units.map((u) => u.sessionId))) {
    const loaded = await loadAnalyzedSession(db, sessionId);
    traces.set(sessionId, loaded ? { session: loaded.session, index: loaded.index, countTokens: (text) => loaded.tokenizer.count(text) } : undefined);
  }
  const out: { judged: JudgedUnit[]; stale: CalibrationResult["stale"] } = { judged: [], stale: [] };
  for (const { unit, sessionId } of units) {
    await new Promise((resolve) => setImmediate(resolve));
    const one = judgeGoldUnits([unit], () => traces.get(sessionId));
    out.judged.push(...one.judged);
    out.stale.push(...one.stale);
  }
  return out;
}

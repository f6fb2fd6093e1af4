import type { Sidecar } from "../../compaction/projection/types";
import { confusionMatrix } from "../../stats/agreement";
import { cohenKappa } from "../../stats/kappa";
import { wilson } from "../../stats/wilson";
import type { Session } from "../../trace/model";
import { sha256Hex, utf8Bytes } from "../../util/sha256";
import { judgeDependencies } from "../judge/dependency-judge";
import type { JudgeIndex } from "../judge/types";
import type { JudgeVerdict } from "../judge/verdict-schema";
import { expandView } from "../views/compact-view";
import type { GoldLine, GoldUnit, ViewVerdict } from "./gold";
import { rebuildPayload } from "./sidecar-source";

/**
 * The deterministic judge measured against the gold set (issue 16: "a judge is worth what its
 * agreement with careful reading is"). Each gold view is judged as stored — no policy runs — and
 * the judge's reading is mapped onto the labels' three verdicts: `impact` when it finds a lost
 * dependency, `restorable` when none is lost but some are only in named sidecars, `no_impact`
 * otherwise. Reported: accuracy with its Wilson interval, Cohen's κ with its interval and the
 * confusion matrix, on the three verdicts and on the binary question the headline asks (impact or
 * not), and every disagreement. A unit whose trace is not loaded or whose sidecars the trace no
 * longer rebuilds is `stale` and left out (counted).
 */
export const CALIBRATION_LABELS: readonly ViewVerdict[] = ["no_impact", "restorable", "impact"];

export interface ResolvedTrace {
  session: Session;
  index: JudgeIndex;
  countTokens: (text: string) => number;
}

export interface AgreementFigures {
  labels: string[];
  /** Rows: gold label, columns: judge label, in `labels` order. */
  matrix: number[][];
  accuracy: { pct: number; ci95: [number, number] };
  kappa: { value: number; ci95: [number, number] };
}

export interface CalibrationResult extends AgreementFigures {
  units: number;
  stale: { unit: string; reason: string }[];
  binary: AgreementFigures;
  disagreements: { unit: string; gold: ViewVerdict; judge: ViewVerdict; note: string }[];
  /** Per unit, what the judge said (for reports and tests). */
  judged: { unit: string; gold: ViewVerdict; judge: ViewVerdict; summary: string }[];
}

export function judgeLabelOf(verdict: Pick<JudgeVerdict, "evidence">): ViewVerdict {
  const counts = verdict.evidence?.counts;
  if (!counts) throw new RangeError("the verdict carries no dependency counts (not the dependency judge)");
  return counts.lost > 0 ? "impact" : counts.restorable > 0 ? "restorable" : "no_impact";
}

/** Judges one gold unit's stored view; a string says why it cannot be judged (stale). */
export function judgeGoldUnit(unit: GoldUnit, trace: ResolvedTrace): JudgeVerdict | string {
  const { session } = trace;
  if (unit.cut > session.messages.length) return `cut ${unit.cut} is beyond the session's ${session.messages.length} messages`;
  const sidecars: Sidecar[] = [];
  for (const s of unit.sidecars) {
    const payload = s.payload ?? (s.source ? rebuildPayload(session.messages, s.source) : undefined);
    if (payload === undefined || sha256Hex(payload) !== s.digest) return `sidecar ${s.digest.slice(0, 12)} (${s.objectId}) is not rebuilt from the trace`;
    sidecars.push({ target: s.objectId, sha256: s.digest, bytes: utf8Bytes(payload).length, payload });
  }
  let view;
  try {
    view = expandView(session.messages, unit.view);
  } catch (error) {
    return (error as Error).message;
  }
  return judgeDependencies({
    session,
    index: trace.index,
    cut: unit.cut,
    result: { cut: unit.cut, view, sidecars, actions: [] },
    countTokens: trace.countTokens,
  });
}

export function calibrateJudge(lines: readonly GoldLine[], resolve: (unit: GoldUnit) => ResolvedTrace | undefined): CalibrationResult {
  const { judged, stale } = judgeGoldUnits(
    lines.map((l) => l.unit),
    resolve,
  );
  const gold = new Map(lines.map((l) => [l.unit.id, l.label.verdict]));
  return summarizeCalibration(
    judged.map((j) => ({ ...j, gold: gold.get(j.unit)! })),
    stale,
  );
}

/** The judge's reading of one unit, mapped onto the three verdicts. */
export interface JudgedUnit {
  unit: string;
  judge: ViewVerdict;
  summary: string;
}

/**
 * Judges units without their labels: the judge's side of a calibration, which depends only on the
 * units (and the traces), so a caller that compares it with labels that keep changing — the review
 * studio's calibration queue — judges once and summarises again per label (summarizeCalibration).
 */
export function judgeGoldUnits(
  units: readonly GoldUnit[],
  resolve: (unit: GoldUnit) => ResolvedTrace | undefined,
): { judged: JudgedUnit[]; stale: CalibrationResult["stale"] } {
  const stale: CalibrationResult["stale"] = [];
  const judged: JudgedUnit[] = [];
  for (const unit of units) {
    const trace = resolve(unit);
    if (!trace) {
      stale.push({ unit: unit.id, reason: `trace ${unit.trace.path} (session ${unit.sessionId}) is not among the loaded traces` });
      continue;
    }
    const verdict = judgeGoldUnit(unit, trace);
    if (typeof verdict === "string") stale.push({ unit: unit.id, reason: verdict });
    else judged.push({ unit: unit.id, judge: judgeLabelOf(verdict), summary: verdict.summary });
  }
  return { judged, stale };
}

/** The agreement figures of judged units against their labels (`gold`), in the order given. */
export function summarizeCalibration(judged: readonly (JudgedUnit & { gold: ViewVerdict })[], stale: CalibrationResult["stale"]): CalibrationResult {
  const three = agreement(
    judged.map((j) => j.gold),
    judged.map((j) => j.judge),
    CALIBRATION_LABELS,
  );
  const binaryOf = (v: ViewVerdict) => (v === "impact" ? "impact" : "no_impact");
  const binary = agreement(
    judged.map((j) => binaryOf(j.gold)),
    judged.map((j) => binaryOf(j.judge)),
    ["no_impact", "impact"],
  );
  return {
    units: judged.length,
    stale: [...stale],
    ...three,
    binary,
    disagreements: judged.filter((j) => j.gold !== j.judge).map((j) => ({ unit: j.unit, gold: j.gold, judge: j.judge, note: j.summary })),
    judged: judged.map((j) => ({ unit: j.unit, gold: j.gold, judge: j.judge, summary: j.summary })),
  };
}

function agreement(gold: readonly string[], judge: readonly string[], labels: readonly string[]): AgreementFigures {
  const { counts } = confusionMatrix(gold, judge, labels);
  const correct = gold.filter((g, i) => g === judge[i]).length;
  const acc = gold.length === 0 ? { low: 0, high: 0 } : wilson(correct, gold.length);
  const kappa = cohenKappa(counts);
  const pct = (x: number) => Math.round(x * 10_000) / 100;
  const k = (x: number) => (Number.isFinite(x) ? Math.round(x * 1000) / 1000 : 0);
  return {
    labels: [...labels],
    matrix: counts.map((row) => [...row]),
    accuracy: { pct: gold.length === 0 ? 0 : pct(correct / gold.length), ci95: [pct(acc.low), pct(acc.high)] },
    kappa: { value: k(kappa.kappa), ci95: [k(kappa.low), k(kappa.high)] },
  };
}

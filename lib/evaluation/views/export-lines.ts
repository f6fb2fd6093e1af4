import type { Message, Session } from "../../trace/model";
import type { JudgedUnitView } from "../runner/evaluate-suite";
import { restoreCosts, sidecarTokens } from "../judge/restores";
import type { CheckedDependency } from "../judge/types";
import { compactView } from "./compact-view";
import type { ViewsCutLine, ViewsSidecarLine, ViewsUnitLine } from "./schema";

/**
 * Builds the lines of a views export (schema.ts) from judged units. Stateful only in what it has
 * already written — the current cut and the sidecar digests — so each cut's prefix and future and
 * each payload appear once. The verdicts are every dependency the judge checked against the view
 * (the stored evidence keeps at most 200).
 */
export interface ViewsLineWriter {
  linesFor(unit: JudgedUnitView): (ViewsCutLine | ViewsSidecarLine | ViewsUnitLine)[];
}

export function createViewsLineWriter(countTokens: (session: Session) => (text: string) => number): ViewsLineWriter {
  let currentCut: string | undefined;
  const written = new Set<string>();
  return {
    linesFor(unit) {
      const lines: (ViewsCutLine | ViewsSidecarLine | ViewsUnitLine)[] = [];
      const cutKey = `${unit.session.id}#${unit.cut.cut}`;
      if (cutKey !== currentCut) {
        currentCut = cutKey;
        lines.push(cutLine(unit));
      }
      for (const sidecar of unit.result.sidecars) {
        if (written.has(sidecar.sha256)) continue;
        written.add(sidecar.sha256);
        lines.push({ kind: "sidecar", digest: sidecar.sha256, payload: sidecar.payload });
      }
      lines.push(unitLine(unit, countTokens(unit.session)));
      return lines;
    },
  };
}

function canonical(message: Message): ViewsCutLine["prefix"][number] {
  return { index: message.index, role: message.role, parts: message.parts };
}

function cutLine({ session, cut }: JudgedUnitView): ViewsCutLine {
  return {
    kind: "cut",
    sessionId: session.id,
    format: session.format,
    cut: cut.cut,
    reasons: cut.reasons,
    prefixTokens: cut.prefixTokens,
    prefix: session.messages.slice(0, cut.cut).map(canonical),
    future: session.messages.slice(cut.cut).map(canonical),
  };
}

function unitLine(unit: JudgedUnitView, count: (text: string) => number): ViewsUnitLine {
  const { session, evaluation, result } = unit;
  const { checked } = unit;
  const restores = restoreCosts(checked, result.sidecars, count);
  const lost = checked.some((d) => d.status === "lost");
  return {
    kind: "unit",
    unit: unit.key,
    sessionId: session.id,
    cut: unit.cut.cut,
    policy: evaluation.policy,
    params: evaluation.params,
    budget: evaluation.budget ?? null,
    budgetPct: evaluation.budget?.kind === "sweep" ? evaluation.budget.pct : null,
    targetTokens: evaluation.targetTokens ?? null,
    tokensBefore: result.tokensBefore,
    tokensAfter: result.tokensAfter,
    pruneRate: result.pruneRate,
    netPruneRate: evaluation.netPruneRate ?? null,
    view: compactView(session.messages, result.view),
    sidecars: result.sidecars.map((s) => ({ digest: s.sha256, objectId: s.target, tokens: sidecarTokens(s, count) })),
    verdicts: checked.map(verdictOf),
    noImpact: evaluation.noImpact,
    visibleNoImpact: !lost && !checked.some((d) => d.status === "restorable"),
    restorableNoImpact: !lost,
    restores: restores.map((r) => ({ digest: r.sha256, objectId: r.target, tokens: r.tokens, cost: r.cost })),
  };
}

function verdictOf(d: CheckedDependency): ViewsUnitLine["verdicts"][number] {
  return {
    value: d.value,
    kind: d.kind,
    plantedAt: { message: d.plantedAt.message, part: d.plantedAt.part, ...(d.plantedAt.objectId ? { objectId: d.plantedAt.objectId } : {}) },
    usedAt: { message: d.usedAt.message, part: d.usedAt.part },
    verdict: d.status,
    ...(d.lostBy ? { action: d.lostBy.action, target: d.lostBy.target, rule: d.lostBy.rule } : {}),
    ...(d.category ? { category: d.category } : {}),
    ...(d.sidecar ? { sidecar: d.sidecar.sha256 } : {}),
  };
}

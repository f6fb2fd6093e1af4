import { evaluateSuite, type JudgedUnitView } from "@/lib/evaluation/runner/evaluate-suite";
import { budgetKey } from "@/lib/evaluation/cuts/budget";
import { resolveParams } from "@/lib/compaction/policies/params";
import type { LoadedSuiteSession } from "../load-suite-sessions";
import { policyKey, runCutOptions, suitePolicies, type EvalSettings } from "../run-settings";
import type { ValueRedactor } from "./redact-value";

/** One stored unit to regenerate: where it was cut, by which policy entry, at which budget. */
export interface PatchUnit {
  unitKey: string;
  sessionId: string;
  cut: number;
  policy: string;
  /** The unit's budget key and the view size it was compacted to (null at the policy's own settings). */
  budget: string | null;
  targetTokens: number | null;
  tokensAfter: number;
}

/** The candidate patch of one unit: the policy's actions per object (target, action, rule). */
export interface CandidatePatch {
  unitKey: string;
  policy: string;
  params: Record<string, unknown>;
  /** Whether the regenerated result has the stored unit's tokens after (policies are deterministic). */
  reproduced: boolean;
  tokensAfter: number;
  actions: { target: string; action: string; rule: string; reason: string; tokensBefore: number; tokensAfter: number }[];
  rejected: { target: string; reason: string }[];
  summary?: string;
  /** Set instead of actions when the unit cannot be regenerated offline (planner=llm). */
  unavailable?: string;
}

export interface PlannerOutput {
  unitKey: string;
  policy: string;
  budget: string | null;
  sessionId: string;
  cut: number;
  xml: string;
}

/**
 * Candidate patches and Self-GC planner outputs for a package, in the order of `units`. Stored
 * results keep the verdict and the token figures, not the edits, so the run is replayed through the
 * one suite engine (lib/evaluation/runner/evaluate-suite.ts) with the run's settings — cut levels, trigger,
 * pointer style, sweep, match — over the stored units alone (`isDone` skips every other unit), and
 * each unit's regenerated result is checked against its stored tokens (`reproduced`; policies are
 * deterministic). A matched unit is compacted to the stored reference size. A self-gc unit planned
 * by an LLM is not re-planned: an export must not call a model, so it is marked unavailable.
 * Trace-derived text (reasons, summaries, planner XML) goes through the redactor.
 */
export async function regeneratePatches(
  units: readonly PatchUnit[],
  sessions: readonly LoadedSuiteSession[],
  settings: EvalSettings,
  redactor: ValueRedactor,
): Promise<{ patches: CandidatePatch[]; plannerOutputs: PlannerOutput[] }> {
  const entries = new Map(settings.policies.map((entry, i) => [policyKey(entry), suitePolicies(settings)[i]!]));
  const loaded = new Map(sessions.map((s) => [s.session.id, s]));
  const stored = new Map(units.map((u) => [u.unitKey, u]));
  const patches = new Map<string, CandidatePatch>();
  const plannerOutputs = new Map<string, PlannerOutput>();
  const unavailable = (unit: PatchUnit, params: Record<string, unknown>, reason: string) =>
    patches.set(unit.unitKey, {
      unitKey: unit.unitKey,
      policy: unit.policy,
      params,
      reproduced: false,
      tokensAfter: unit.tokensAfter,
      actions: [],
      rejected: [],
      unavailable: reason,
    });
  const regenerate = new Set<string>();
  for (const unit of units) {
    const entry = entries.get(unit.policy);
    if (!entry) unavailable(unit, {}, "the policy is not in the run's settings");
    else if (!loaded.has(unit.sessionId)) unavailable(unit, {}, "the session was deleted");
    else if (entry.policy.id === "self-gc" && resolveParams(entry.policy, entry.params ?? {}).planner === "llm")
      unavailable(unit, resolveParams(entry.policy, entry.params ?? {}), "planned by an LLM (planner=llm): an export does not call the model again");
    else regenerate.add(unit.unitKey);
  }
  // The size every matched unit at a cut was compacted to, as stored (the reference's own unit may be model-planned).
  const matchKey = settings.match !== undefined ? budgetKey({ kind: "match", reference: settings.match }) : undefined;
  const referenceSizes = new Map(
    units.filter((u) => u.budget === matchKey && u.targetTokens !== null).map((u) => [`${u.sessionId}#${u.cut}`, u.targetTokens!]),
  );

  const record = (view: JudgedUnitView) => {
    const unit = stored.get(view.key)!;
    const { result } = view;
    patches.set(unit.unitKey, {
      unitKey: unit.unitKey,
      policy: unit.policy,
      params: result.params,
      reproduced: result.tokensAfter === unit.tokensAfter,
      tokensAfter: result.tokensAfter,
      actions: result.actions.map((a) => ({
        target: a.target,
        action: a.action,
        rule: a.rule,
        reason: redactor.text(a.reason),
        tokensBefore: a.tokensBefore,
        tokensAfter: a.tokensAfter,
      })),
      rejected: result.rejected.map((r) => ({ target: r.target, reason: redactor.text(r.reason) })),
      ...(result.summary !== undefined ? { summary: redactor.text(result.summary) } : {}),
    });
    const xml = result.details?.xml;
    if (entries.get(unit.policy)?.policy.id === "self-gc" && typeof xml === "string")
      plannerOutputs.set(unit.unitKey, {
        unitKey: unit.unitKey,
        policy: unit.policy,
        budget: unit.budget,
        sessionId: unit.sessionId,
        cut: unit.cut,
        xml: redactor.text(xml),
      });
  };
  const suite = evaluateSuite({
    sessions: sessions.filter((s) => units.some((u) => regenerate.has(u.unitKey) && u.sessionId === s.session.id)),
    policies: suitePolicies(settings),
    ...runCutOptions(settings),
    tokenizerFor: (session) => loaded.get(session.id)!.tokenizer,
    triggerLevel: settings.triggerLevel,
    pointers: settings.pointers,
    ...(settings.sweep ? { sweep: settings.sweep } : {}),
    ...(settings.match !== undefined ? { match: settings.match } : {}),
    isDone: (key) => !regenerate.has(key),
    referenceSize: (sessionId, cut) => referenceSizes.get(`${sessionId}#${cut}`),
    onView: record,
  });
  for await (const item of suite)
    if (item.kind === "error") unavailable(stored.get(item.key)!, {}, `the policy failed when run again: ${redactor.text(item.message)}`);
  for (const unit of units) if (!patches.has(unit.unitKey)) unavailable(unit, {}, "the replay no longer has this unit's cut");
  return { patches: units.map((u) => patches.get(u.unitKey)!), plannerOutputs: units.flatMap((u) => plannerOutputs.get(u.unitKey) ?? []) };
}

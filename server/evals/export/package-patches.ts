import { resolveParams } from "@/lib/policies/params";
import { runPolicy } from "@/lib/policies/run-policy";
import type { SuitePolicy } from "@/lib/eval/evaluate-suite";
import type { PointerStyle } from "@/lib/projection/pointers";
import type { LoadedSuiteSession } from "../load-suite-sessions";
import type { ValueRedactor } from "./redact-value";

/** One stored unit to regenerate: where it was cut, at which window, by which policy entry. */
export interface PatchUnit {
  unitKey: string;
  sessionId: string;
  cut: number;
  window: number;
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

/**
 * Candidate patches and Self-GC planner outputs for a package. Stored results keep the verdict and
 * the token figures, not the edits, so each unit's policy is run again with exactly the unit's
 * inputs (session, cut, window, params, tokenizer, the run's pointer style and the unit's target
 * view size; policies are deterministic) — and the result's tokens are checked against the stored
 * ones (`reproduced`). A self-gc unit
 * planned by an LLM is not re-planned: an export must not call a model, so it is marked
 * unavailable. Trace-derived text (reasons, summaries, planner XML) goes through the redactor.
 */
export interface PlannerOutput {
  unitKey: string;
  policy: string;
  budget: string | null;
  sessionId: string;
  cut: number;
  xml: string;
}

export async function regeneratePatches(units: readonly PatchUnit[], sessions: ReadonlyMap<string, LoadedSuiteSession>, policies: ReadonlyMap<string, SuitePolicy>, redactor: ValueRedactor, pointers?: PointerStyle): Promise<{ patches: CandidatePatch[]; plannerOutputs: PlannerOutput[] }> {
  const patches: CandidatePatch[] = [];
  const plannerOutputs: PlannerOutput[] = [];
  for (const unit of units) {
    const entry = policies.get(unit.policy);
    const suite = sessions.get(unit.sessionId);
    const base = { unitKey: unit.unitKey, policy: unit.policy, tokensAfter: unit.tokensAfter, actions: [], rejected: [] };
    if (!entry || !suite) {
      patches.push({ ...base, params: {}, reproduced: false, unavailable: !entry ? "the policy is not in the run's settings" : "the session was deleted" });
      continue;
    }
    const params = resolveParams(entry.policy, entry.params ?? {});
    if (entry.policy.id === "self-gc" && params.planner === "llm") {
      patches.push({ ...base, params, reproduced: false, unavailable: "planned by an LLM (planner=llm): an export does not call the model again" });
      continue;
    }
    const result = await runPolicy(entry.policy, {
      session: suite.session,
      index: suite.index,
      cut: unit.cut,
      window: unit.window,
      tokenizer: suite.tokenizer,
      params: entry.params ?? {},
      ...(pointers ? { pointers } : {}),
      ...(unit.targetTokens !== null ? { targetTokens: unit.targetTokens } : {}),
    });
    patches.push({
      unitKey: unit.unitKey,
      policy: unit.policy,
      params: result.params,
      reproduced: result.tokensAfter === unit.tokensAfter,
      tokensAfter: result.tokensAfter,
      actions: result.actions.map((a) => ({ target: a.target, action: a.action, rule: a.rule, reason: redactor.text(a.reason), tokensBefore: a.tokensBefore, tokensAfter: a.tokensAfter })),
      rejected: result.rejected.map((r) => ({ target: r.target, reason: redactor.text(r.reason) })),
      ...(result.summary !== undefined ? { summary: redactor.text(result.summary) } : {}),
    });
    const xml = result.details?.xml;
    if (entry.policy.id === "self-gc" && typeof xml === "string") plannerOutputs.push({ unitKey: unit.unitKey, policy: unit.policy, budget: unit.budget, sessionId: unit.sessionId, cut: unit.cut, xml: redactor.text(xml) });
  }
  return { patches, plannerOutputs };
}

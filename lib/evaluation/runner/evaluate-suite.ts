import type { ContextIndex } from "../../compaction/context/objects";
import type { LlmAbortSignal, LlmClient } from "../../llm/types";
import type { Policy, PolicyParams, PolicyResult } from "../../compaction/policies/types";
import type { Summarizer } from "../../compaction/summarizer/types";
import type { Tokenizer } from "../../tokens/tokenizer";
import type { Session } from "../../trace/model";
import { replayCuts, type ReplayCut, type ReplayCutOptions } from "../cuts/cut-protocol";
import type { PointerStyle } from "../../compaction/projection/pointers";
import { budgetKey, sweepTarget, type Budget } from "../cuts/budget";
import { evaluateCutWithView, type CutEvaluation, type EvaluateCutInput } from "./evaluate-cut";
import { extractDependencies } from "../judge/dependencies";
import type { CheckedDependency, DependencySet } from "../judge/types";
import { createDependencyMatcher, type DependencyMatcher } from "../judge/view-texts";
import { orderedPool } from "./ordered-pool";
import { runAtCut } from "./run-at-cut";

/**
 * Replay over a suite: sessions × replay cuts × policies, as an async generator so a server job
 * can persist each result as it comes, report progress and resume.
 *
 * Order is deterministic (sessions as given, cuts ascending, then each policy at its own
 * settings, at each sweep budget, and matched to the reference), and each unit has a stable key
 * `<sessionId>#<cut>#<policyKey>` (`#<budgetKey>` appended for a budgeted unit, lib/evaluation/cuts/budget.ts);
 * `isDone(key)` skips units already stored, and a cut whose units are all done is not even
 * extracted. Dependencies are extracted once per cut and shared by every unit there. A policy that
 * throws yields an `error` item; the run goes on.
 *
 * Units run with up to `concurrency` in flight (default 1; a policy or judge that calls a model is
 * slow) and are yielded in plan order all the same. A `judge` replaces each unit's dependency
 * verdict with its own over the unit's exact policy result (the LLM judge: the policy, and so an
 * LLM planner, runs once per unit and the verdict is about the plan whose figures are stored). An
 * error `isFatal` says is fatal (a model endpoint that is down) ends the run by throwing, since every
 * later unit would fail the same way.
 *
 * An aborted `signal` (a cancelled run, Ctrl-C) ends the generator at once: no unit starts, and
 * the units in flight are dropped unyielded without waiting for them — a resumed run redoes them,
 * so no unit is stored as failed because it was cut short. The engine cannot reach the model calls
 * inside an opaque judge or policy itself: the caller hands the same signal to the client they use
 * (server/llm/with-signal.ts), which aborts those calls.
 *
 * Matched units run the reference first at its own settings (re-run when its stored unit is done,
 * so a resumed run matches the same size) and then every policy — the reference included, under
 * the match key — at the reference's view size. A reference that failed at a cut leaves that
 * cut's matched units failed with the reason.
 */
export interface SuitePolicy {
  policy: Policy;
  params?: PolicyParams;
  /** Distinguishes two runs of one policy with different params (default: the policy id). */
  key?: string;
}

export interface SuiteSession {
  session: Session;
  index: ContextIndex;
}

export interface EvaluateSuiteOptions extends ReplayCutOptions {
  sessions: readonly SuiteSession[];
  policies: readonly SuitePolicy[];
  tokenizerFor: (session: Session) => Tokenizer;
  triggerLevel?: number;
  isDone?: (key: string) => boolean;
  summarizer?: Summarizer;
  summaryCap?: number;
  llm?: LlmClient;
  /** Pointer style of every fold (harness setting, default `semantic`). */
  pointers?: PointerStyle;
  /** Run every policy at its own settings (default true). */
  ownSettings?: boolean;
  /** Target shares of the prefix removed (whole percents) every policy also runs at. */
  sweep?: readonly number[];
  /** Key of the policy whose view size every policy is also matched to at each cut. */
  match?: string;
  /**
   * The reference's view size at a cut when it is already known (undefined: run the reference).
   * The reproduction export passes the stored one, so a reference planned by a model is not re-planned.
   */
  referenceSize?: (sessionId: string, cut: number) => number | undefined;
  /** Called with each judged unit's policy result (a views export writes them). */
  onView?: (view: JudgedUnitView) => void | Promise<void>;
  /**
   * Judges a unit instead of the dependency judge (its verdict replaces `view.evaluation`'s). Without
   * `onView`, the dependency judge then does not run: the view the judge gets has no dependencies
   * and no checks, and its evaluation's verdict is a placeholder to replace.
   */
  judge?: (view: JudgedUnitView) => Promise<CutEvaluation>;
  /** Units in flight at once (default 1). */
  concurrency?: number;
  /** Errors that end the run instead of failing one unit. */
  isFatal?: (error: unknown) => boolean;
  /** Stops the suite: no unit starts after it aborts and units in flight are dropped. */
  signal?: LlmAbortSignal;
}

/** What `onView` receives: one judged unit with its policy result and the cut's dependencies. */
export interface JudgedUnitView {
  key: string;
  session: Session;
  index: ContextIndex;
  cut: ReplayCut;
  evaluation: CutEvaluation;
  result: PolicyResult;
  /** The cut's dependencies. */
  dependencies: DependencySet;
  /** Every dependency checked against this view (the evaluation's evidence is capped). */
  checked: CheckedDependency[];
}

export interface SuiteProgress {
  /** Units finished, including skipped and failed ones. */
  done: number;
  total: number;
  skipped: number;
  failed: number;
}

export type SuiteItem =
  | { kind: "result"; key: string; evaluation: CutEvaluation; progress: SuiteProgress }
  | { kind: "error"; key: string; sessionId: string; cut: number; policy: string; message: string; progress: SuiteProgress };

export function unitKey(sessionId: string, cut: number, policy: SuitePolicy, budget?: Budget): string {
  return `${sessionId}#${cut}#${policy.key ?? policy.policy.id}${budget ? `#${budgetKey(budget)}` : ""}`;
}

interface Unit {
  entry: SuitePolicy;
  budget?: Budget;
}

/** The units of one cut, in order: own settings, each sweep budget, matched. */
function unitsOf(options: EvaluateSuiteOptions): Unit[] {
  const units: Unit[] = [];
  if (options.ownSettings ?? true) for (const entry of options.policies) units.push({ entry });
  for (const pct of options.sweep ?? []) for (const entry of options.policies) units.push({ entry, budget: { kind: "sweep", pct } });
  if (options.match !== undefined) {
    if (!options.policies.some((p) => (p.key ?? p.policy.id) === options.match))
      throw new RangeError(`--match ${options.match}: not one of the run's policies`);
    for (const entry of options.policies) units.push({ entry, budget: { kind: "match", reference: options.match } });
  }
  return units;
}

type WithoutProgress<T> = T extends unknown ? Omit<T, "progress"> : never;
type Settled = { item: WithoutProgress<SuiteItem> } | { fatal: unknown };

export async function* evaluateSuite(options: EvaluateSuiteOptions): AsyncGenerator<SuiteItem> {
  const plan = options.sessions.map((s) => ({ ...s, cuts: replayCuts(s.session, s.index, options) }));
  const units = unitsOf(options);
  const progress: SuiteProgress = { done: 0, total: plan.reduce((n, s) => n + s.cuts.length * units.length, 0), skipped: 0, failed: 0 };
  // A judge's verdict replaces the dependency judge's: extracting and checking dependencies for it
  // would be thrown away (about 40% of an LLM-judged unit's CPU, which caps what concurrency gains),
  // unless `onView` asks for the views, which carry the per-dependency checks.
  const skipDependencies = options.judge !== undefined && options.onView === undefined;
  function* tasks(): Generator<() => Promise<Settled>> {
    for (const { session, index, cuts } of plan) {
      for (const cut of cuts) {
        const pending = units.filter((u) => !options.isDone?.(unitKey(session.id, cut.cut, u.entry, u.budget)));
        progress.skipped += units.length - pending.length;
        progress.done += units.length - pending.length;
        if (pending.length === 0) continue;
        const shared: CutShared = { dependencies: skipDependencies ? noDependencies(session.id, cut.cut) : extractDependencies(session, index, cut.cut) };
        shared.matcher = createDependencyMatcher(shared.dependencies.dependencies);
        const reference = new ReferenceSize(options, { session, index }, cut, shared);
        for (const unit of pending) yield () => evaluateUnit(options, { session, index }, cut, unit, shared, reference);
      }
    }
  }
  for await (const settled of orderedPool(tasks(), options.concurrency ?? 1, options.signal)) {
    if ("fatal" in settled) throw settled.fatal;
    progress.done++;
    if (settled.item.kind === "error") progress.failed++;
    yield { ...settled.item, progress: { ...progress } } as SuiteItem;
  }
}

/** The dependency set of a cut whose dependencies are not extracted (see `skipDependencies`). */
function noDependencies(sessionId: string, cut: number): DependencySet {
  return {
    sessionId,
    cut,
    dependencies: [],
    futureAssistantSteps: 0,
    futureAssistantChars: 0,
    stats: { candidates: 0, notInPrefix: 0, rediscovered: 0, common: 0, ownCommand: 0 },
  };
}

interface CutShared {
  dependencies: DependencySet;
  matcher?: DependencyMatcher;
}

/** The reference policy's view size at one cut, computed once (own-settings unit or a re-run). */
class ReferenceSize {
  private size?: Promise<number>;
  constructor(
    private readonly options: EvaluateSuiteOptions,
    private readonly suiteSession: SuiteSession,
    private readonly cut: ReplayCut,
    private readonly shared: CutShared,
  ) {}

  /** Records the reference's own-settings result when the run evaluates it anyway. */
  offer(unit: Unit, evaluation: CutEvaluation): void {
    if (!unit.budget && (unit.entry.key ?? unit.entry.policy.id) === this.options.match) this.size ??= Promise.resolve(evaluation.tokensAfter);
  }

  get(): Promise<number> {
    const known = this.options.referenceSize?.(this.suiteSession.session.id, this.cut.cut);
    if (known !== undefined) this.size ??= Promise.resolve(known);
    this.size ??= (async () => {
      const entry = this.options.policies.find((p) => (p.key ?? p.policy.id) === this.options.match)!;
      const { result } = await runAtCut(cutInput(this.options, this.suiteSession, this.cut, { entry }, this.shared));
      return result.tokensAfter;
    })();
    return this.size;
  }
}

function cutInput(
  options: EvaluateSuiteOptions,
  { session, index }: SuiteSession,
  cut: ReplayCut,
  unit: Unit,
  shared: CutShared,
  targetTokens?: number,
): EvaluateCutInput {
  const { entry, budget } = unit;
  return {
    session,
    index,
    tokenizer: options.tokenizerFor(session),
    policy: entry.policy,
    cut,
    dependencies: shared.dependencies,
    ...(shared.matcher ? { matcher: shared.matcher } : {}),
    ...(entry.params ? { params: entry.params } : {}),
    ...(options.triggerLevel !== undefined ? { triggerLevel: options.triggerLevel } : {}),
    ...(options.summarizer ? { summarizer: options.summarizer } : {}),
    ...(options.summaryCap !== undefined ? { summaryCap: options.summaryCap } : {}),
    ...(options.llm ? { llm: options.llm } : {}),
    ...(options.pointers ? { pointers: options.pointers } : {}),
    ...(budget ? { budget } : {}),
    ...(targetTokens !== undefined ? { targetTokens } : {}),
  };
}

/** The unit's target view size: none at own settings, and none for the reference matched to itself (its own run is the size). */
async function targetOf(unit: Unit, cut: ReplayCut, reference: ReferenceSize): Promise<number | undefined> {
  if (!unit.budget) return undefined;
  if (unit.budget.kind === "sweep") return sweepTarget(cut.prefixTokens, unit.budget.pct);
  if ((unit.entry.key ?? unit.entry.policy.id) === unit.budget.reference) return undefined;
  return reference.get();
}

async function evaluateUnit(
  options: EvaluateSuiteOptions,
  suiteSession: SuiteSession,
  cut: ReplayCut,
  unit: Unit,
  shared: CutShared,
  reference: ReferenceSize,
): Promise<Settled> {
  const { session } = suiteSession;
  const key = unitKey(session.id, cut.cut, unit.entry, unit.budget);
  try {
    const target = await targetOf(unit, cut, reference);
    const judged = await evaluateCutWithView(cutInput(options, suiteSession, cut, unit, shared, target));
    reference.offer(unit, judged.evaluation);
    const view: JudgedUnitView = {
      key,
      session,
      index: suiteSession.index,
      cut,
      evaluation: judged.evaluation,
      result: judged.result,
      dependencies: shared.dependencies,
      checked: judged.checked,
    };
    const evaluation = options.judge ? await options.judge(view) : view.evaluation;
    // A unit finishing after the suite stopped is dropped: its export sink may be closed already.
    if (!options.signal?.aborted) await options.onView?.({ ...view, evaluation });
    return { item: { kind: "result", key, evaluation } };
  } catch (error) {
    if (options.isFatal?.(error)) return { fatal: error };
    const message = error instanceof Error ? error.message : String(error);
    return { item: { kind: "error", key, sessionId: session.id, cut: cut.cut, policy: unit.entry.policy.id, message } };
  }
}

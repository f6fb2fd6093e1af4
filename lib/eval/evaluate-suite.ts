import type { ContextIndex } from "../context/objects";
import type { LlmClient } from "../llm/types";
import type { Policy, PolicyParams } from "../policies/types";
import type { Summarizer } from "../summary/types";
import type { Tokenizer } from "../tokens/tokenizer";
import type { Session } from "../trace/model";
import { replayCuts, type ReplayCut, type ReplayCutOptions } from "./cut-protocol";
import { extractDependencies } from "./dependencies";
import { evaluateCut, type CutEvaluation } from "./evaluate-cut";
import { createDependencyMatcher } from "./view-texts";

/**
 * Replay over a suite: sessions × replay cuts × policies, as an async generator so a server job
 * can persist each result as it comes, report progress and resume.
 *
 * Order is deterministic (sessions as given, cuts ascending, policies as given), and each unit has
 * a stable key `<sessionId>#<cut>#<policyKey>`; `isDone(key)` skips units already stored, and a
 * cut whose units are all done is not even extracted. Dependencies are extracted once per cut and
 * shared by every policy there. A policy that throws yields an `error` item; the run goes on.
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

export function unitKey(sessionId: string, cut: number, policy: SuitePolicy): string {
  return `${sessionId}#${cut}#${policy.key ?? policy.policy.id}`;
}

export async function* evaluateSuite(options: EvaluateSuiteOptions): AsyncGenerator<SuiteItem> {
  const plan = options.sessions.map((s) => ({ ...s, cuts: replayCuts(s.session, s.index, options) }));
  const progress: SuiteProgress = { done: 0, total: plan.reduce((n, s) => n + s.cuts.length * options.policies.length, 0), skipped: 0, failed: 0 };
  for (const { session, index, cuts } of plan) {
    for (const cut of cuts) {
      const pending = options.policies.filter((p) => !options.isDone?.(unitKey(session.id, cut.cut, p)));
      progress.skipped += options.policies.length - pending.length;
      progress.done += options.policies.length - pending.length;
      if (pending.length === 0) continue;
      const dependencies = extractDependencies(session, index, cut.cut);
      const matcher = createDependencyMatcher(dependencies.dependencies);
      for (const entry of pending) {
        yield await evaluateUnit(options, { session, index }, cut, entry, dependencies, matcher, progress);
      }
    }
  }
}

async function evaluateUnit(
  options: EvaluateSuiteOptions,
  { session, index }: SuiteSession,
  cut: ReplayCut,
  entry: SuitePolicy,
  dependencies: ReturnType<typeof extractDependencies>,
  matcher: ReturnType<typeof createDependencyMatcher>,
  progress: SuiteProgress,
): Promise<SuiteItem> {
  const key = unitKey(session.id, cut.cut, entry);
  try {
    const evaluation = await evaluateCut({
      session,
      index,
      tokenizer: options.tokenizerFor(session),
      policy: entry.policy,
      cut,
      dependencies,
      matcher,
      ...(entry.params ? { params: entry.params } : {}),
      ...(options.triggerLevel !== undefined ? { triggerLevel: options.triggerLevel } : {}),
      ...(options.summarizer ? { summarizer: options.summarizer } : {}),
      ...(options.summaryCap !== undefined ? { summaryCap: options.summaryCap } : {}),
      ...(options.llm ? { llm: options.llm } : {}),
    });
    progress.done++;
    return { kind: "result", key, evaluation, progress: { ...progress } };
  } catch (error) {
    progress.done++;
    progress.failed++;
    const message = error instanceof Error ? error.message : String(error);
    return { kind: "error", key, sessionId: session.id, cut: cut.cut, policy: entry.policy.id, message, progress: { ...progress } };
  }
}

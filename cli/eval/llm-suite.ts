import { replayCuts, type ReplayCut } from "@/lib/eval/cut-protocol";
import { evaluateCutWithLlm } from "@/lib/eval/evaluate-cut-llm";
import type { EvaluateSuiteOptions, SuiteItem, SuitePolicy, SuiteProgress, SuiteSession } from "@/lib/eval/evaluate-suite";
import { unitKey } from "@/lib/eval/evaluate-suite";
import type { LlmJudge } from "@/lib/eval/llm-judge/judge";
import { LlmError } from "@/server/llm/errors";

/**
 * The replay suite judged by the LLM judge: the same units, order and item shape as lib's
 * `evaluateSuite`, with up to `concurrency` judge calls in flight (a model endpoint is slow; the
 * local policies are not). Items are yielded in plan order whatever order the calls finish in,
 * so output is deterministic.
 *
 * A malformed judge answer or a failing policy is an `error` item and the run goes on; a
 * transport failure (HTTP error, timeout after the client's retries) aborts the run, since every
 * later call would fail the same way.
 */
export interface LlmSuiteOptions extends EvaluateSuiteOptions {
  judge: LlmJudge;
  concurrency: number;
}

interface Unit {
  entry: SuiteSession;
  cut: ReplayCut;
  policy: SuitePolicy;
}

type WithoutProgress<T> = T extends unknown ? Omit<T, "progress"> : never;
type Settled = { item: WithoutProgress<SuiteItem> } | { fatal: unknown };

export async function* evaluateSuiteWithLlm(options: LlmSuiteOptions): AsyncGenerator<SuiteItem> {
  const units: Unit[] = [];
  for (const entry of options.sessions) {
    for (const cut of replayCuts(entry.session, entry.index, options)) for (const policy of options.policies) units.push({ entry, cut, policy });
  }
  const progress: SuiteProgress = { done: 0, total: units.length, skipped: 0, failed: 0 };
  const inFlight: Promise<Settled>[] = [];
  let next = 0;
  const startNext = () => {
    if (next < units.length) inFlight.push(settle(options, units[next++]!));
  };
  for (let i = 0; i < Math.max(1, options.concurrency); i++) startNext();
  while (inFlight.length > 0) {
    const settled = await inFlight.shift()!;
    if ("fatal" in settled) throw settled.fatal;
    startNext();
    progress.done++;
    if (settled.item.kind === "error") progress.failed++;
    yield { ...settled.item, progress: { ...progress } } as SuiteItem;
  }
}

/** Never rejects (a rejected promise waiting in the queue would be unhandled). */
async function settle(options: LlmSuiteOptions, { entry, cut, policy }: Unit): Promise<Settled> {
  const { session, index } = entry;
  const key = unitKey(session.id, cut.cut, policy);
  try {
    const evaluation = await evaluateCutWithLlm({
      session,
      index,
      tokenizer: options.tokenizerFor(session),
      policy: policy.policy,
      cut,
      judge: options.judge,
      ...(policy.params ? { params: policy.params } : {}),
      ...(options.triggerLevel !== undefined ? { triggerLevel: options.triggerLevel } : {}),
    });
    return { item: { kind: "result", key, evaluation } };
  } catch (error) {
    if (error instanceof LlmError) return { fatal: error };
    const message = error instanceof Error ? error.message : String(error);
    return { item: { kind: "error", key, sessionId: session.id, cut: cut.cut, policy: policy.policy.id, message } };
  }
}

import { buildContextIndex, type ContextIndex } from "../compaction/context/objects";
import { dependenciesAtCommit } from "../evaluation/judge/dependencies-at-commit";
import { judgeWithChecks } from "../evaluation/judge/dependency-judge";
import { buildSessionDependencyIndex, type SessionDependencyIndex } from "../evaluation/judge/session-dependency-index";
import type { DependencySet } from "../evaluation/judge/types";
import { safeCutPoints } from "../compaction/policies/cut-points";
import { resolveParams } from "../compaction/policies/params";
import { runPolicy } from "../compaction/policies/run-policy";
import { defaultBudgetFires } from "../compaction/policies/shared/triggers";
import type { Policy, PolicyParams, PolicyResult } from "../compaction/policies/types";
import type { Summarizer } from "../compaction/summarizer/types";
import type { LlmClient } from "../llm/types";
import type { Tokenizer } from "../tokens/tokenizer";
import type { Message, Session } from "../trace/model";
import { callCacheTerms, commitBenefits, type CallTokens, type CompactionEvent } from "./cache-terms";
import { callStarts, headFromView, withHead } from "./continue-from-view";
import { DEFAULT_PRICES, type Prices } from "./billed-cost";
import { settleRounds, type JudgedRound, type LostStep, type RestoreEvent } from "./judged-rounds";
import { plannerRoundOf, type PlannerRound } from "./planner-rounds";
import { markHead, type HeadMark, type WorkingContext } from "./working-context";

export interface RolloutOptions {
  /** The model's context window in tokens (the policy's trigger reads the prefix against it). */
  window: number;
  tokenizer: Tokenizer;
  params?: PolicyParams;
  summaryCap?: number;
  summarizer?: Summarizer;
  /** Provider cache lifetime; a gap longer than this between calls empties the cache (default 5 min; Infinity: never). */
  cacheTtlMs?: number;
  prices?: Prices;
  /** L_GC of seed 000: input tokens of a side-channel call per commit (planner/summariser), billed at the input price. */
  gcOverheadTokens?: number;
  /**
   * Judge every committed view against the real continuation with the dependency judge (default
   * true): lost dependencies, restores and their tokens. Off, the walk only measures tokens — the
   * numbers without a judge are the same walk, restores left out.
   */
  judge?: boolean;
  /**
   * The model client of policies that call one (self-gc with planner=llm), passed to every
   * `runPolicy`. Each run whose result reports planner usage is recorded in `plannerRounds`.
   */
  llm?: LlmClient;
  /**
   * Record the working context at this call (an index into `calls`): the prompt the walk gave the
   * model there, returned as `workingContext` (rolloutViewAt reads it). Absent: nothing recorded.
   */
  recordCall?: number;
  /**
   * How the judge finds each commit's dependencies: `session-index` (default) reads one index of
   * the whole session built once (`buildSessionDependencyIndex`, linear); `per-commit` extracts them
   * again from the commit's whole continuation (`extractDependencies`, quadratic) — the reference
   * the equivalence test compares against, with the same verdicts.
   */
  judgeExtraction?: "session-index" | "per-commit";
  /**
   * The harness's hard limit (default off): at a safe boundary where the policy's own decision (it
   * did not fire, left its plan pending, or committed a view still too large) leaves the prompt over
   * the window — a call a real harness could not make — the harness asks the policy to compact to
   * its trigger share of the window through the one target parameter every policy takes
   * (`runPolicy`'s `targetTokens`, the matched-budget knob), and commits that answer when it is
   * smaller than the policy's own. Under a target self-gc's commit gates step aside; `none` ignores
   * targets. The same rule for every policy.
   */
  hardLimit?: boolean;
}

export interface RolloutCall {
  /** Index in the original session of the assistant message the call produced. */
  message: number;
  timestamp?: string;
  without: CallTokens;
  /** The prompt with the policy: the committed view, the messages since, and any restored payloads. */
  with: CallTokens;
  /** Output tokens of the step this call produced (the same on both sides). */
  output: number;
  /** A compaction was committed right before this call (its cached prefix is gone). */
  compacted: boolean;
  /** Tokens restored from sidecars right before this call (payload plus the restore call's framing). */
  restoredTokens: number;
}

export interface RolloutSessionResult {
  sessionId: string;
  policy: string;
  window: number;
  calls: RolloutCall[];
  compactions: CompactionEvent[];
  /** Commits the hard limit made (its answer replaced the policy's own decision); 0 without `hardLimit`. */
  hardLimitCommits: number;
  /** Per compaction round (1-based, in order), what the dependency judge found; empty when not judged. */
  rounds: JudgedRound[];
  restores: RestoreEvent[];
  /** Calls whose step needed a value the committed view had lost, with the values' categories. */
  lostSteps: LostStep[];
  meanInput: { without: number; with: number };
  /** 100 × (1 − mean with / mean without). */
  reductionPct: number;
  judged: boolean;
  /**
   * Every time the policy ran (its trigger fired) with a planner that called a model: the tokens
   * (and reported cost) of that planner round, committed or not. Empty for rule-based planners.
   */
  plannerRounds: PlannerRound[];
  /** The working context at `options.recordCall`, when asked and the session has that call. */
  workingContext?: WorkingContext;
}

/**
 * Walks one session in time order, as a harness running `policy` would have: at every model call
 * that starts at a safe cut, the policy's own trigger is read against the context the model would
 * actually get (the compacted prefix plus everything after it); when it fires and the projection
 * is smaller, the compaction is committed and the session continues from the compacted context.
 *
 * Each committed view is judged once, by the same dependency judge as single-cut replay, against
 * the real continuation (judged-rounds.ts turns the verdicts into lost steps, restores and drift).
 * A restorable value is restored at its first use: the sidecar's tokens re-enter the prompt from
 * that call until the next commit. Token counts are Tracefold's tokenizer estimates on both sides,
 * so the series compare like for like; native compactions recorded in the trace are not replayed.
 *
 * Cost: prefix sums between commits (O(1) per call); the working session (committed head plus the
 * messages since) reaches only a horizon of about one window of new tokens past the walk, extended by
 * doubling, so its index is rebuilt over what each round walks (linear in the session for a fixed
 * window). The judge reads each commit's continuation from one dependency index of the session,
 * built at the first commit (`buildSessionDependencyIndex`): a commit costs its prefix plus its
 * answer, so the judged walk stays linear too; `judgeExtraction: "per-commit"` re-extracts each
 * continuation instead (the former, quadratic path), with the same verdicts.
 */
export async function rolloutSession(session: Session, policy: Policy, options: RolloutOptions): Promise<RolloutSessionResult> {
  const params = resolveParams(policy, options.params ?? {});
  const judge = options.judge ?? true;
  const original = buildContextIndex(session, options.tokenizer);
  const n = session.messages.length;
  // A cut in the working session is safe exactly when its original position is: the committed head
  // is a valid view (no call left open) and every later message is the original's.
  const safeOriginal = new Set(safeCutPoints(session));
  let head: Message[] = [];
  let base = 0;
  let end = horizonEnd(original.prefixTokens, base, base + 1, options.window);
  let work = withHead(session, head, base, end);
  let index: ContextIndex = buildContextIndex(work, options.tokenizer);
  const starts = callStarts(session);
  const walked: { message: number; without: number; with: number; compacted: boolean; output: number }[] = [];
  const compactionAt: { call: number; tokensBefore: number; tokensAfter: number; actions: number }[] = [];
  const rounds: JudgedRound[] = [];
  const plannerRounds: PlannerRound[] = [];
  // Only when a call's context is asked for: where each head message came from, and the sidecars committed so far.
  const record = options.recordCall;
  let headMarks: HeadMark[] = [];
  let sidecars: WorkingContext["sidecars"] = [];
  let workingContext: WorkingContext | undefined;
  let dependencyIndex: SessionDependencyIndex | undefined;
  let hardLimitCommits = 0;
  // The size the hard limit asks for: the policy's own trigger share of the window when it has one.
  const hardLimitShare = typeof params.triggerRatio === "number" ? params.triggerRatio : DEFAULT_HARD_LIMIT_SHARE;

  for (let c = 0; c < starts.length; c++) {
    const k = starts[c]!;
    if (k === 0) continue;
    const stepEnd = nextNonAssistant(session, k);
    if (stepEnd + HORIZON_MARGIN > end && end < n) {
      // The walk nears the end of the working session: extend it (doubling its new tokens), so the
      // index is rebuilt O(log) times per round over what the round really walks.
      end = horizonEnd(
        original.prefixTokens,
        base,
        stepEnd + HORIZON_MARGIN,
        2 * Math.max(options.window, original.prefixTokens[end]! - original.prefixTokens[base]!),
      );
      work = withHead(session, head, base, end);
      index = buildContextIndex(work, options.tokenizer);
    }
    let cut = k - base + head.length;
    let compacted = false;
    const prefixTokens = index.prefixTokens[cut]!;
    const ctx = { session: work, index, cut, window: options.window, tokenizer: options.tokenizer, prefixTokens, summaryCap: options.summaryCap ?? 2_000 };
    const fires = safeOriginal.has(k) && (policy.fires ? policy.fires(ctx, params) : defaultBudgetFires(ctx, params));
    const run = (targetTokens?: number) =>
      runPolicy(policy, {
        session: work,
        index,
        cut,
        window: options.window,
        tokenizer: options.tokenizer,
        params,
        ...(targetTokens !== undefined ? { targetTokens } : {}),
        ...(options.summaryCap !== undefined ? { summaryCap: options.summaryCap } : {}),
        ...(options.summarizer ? { summarizer: options.summarizer } : {}),
        ...(options.llm ? { llm: options.llm } : {}),
      });
    const recordPlannerRound = (r: PolicyResult, committed: boolean) => {
      const planned = plannerRoundOf(r, { call: walked.length, message: k, committed });
      if (planned) plannerRounds.push(planned);
    };
    const commits = (r: PolicyResult | undefined): r is PolicyResult => r !== undefined && r.tokensAfter < r.tokensBefore;
    const own = fires ? await run() : undefined;
    let result = own;
    // The hard limit steps in only where the policy's own decision leaves the prompt over the window
    // (it did not fire, stayed pending, or committed a view still too large), and its answer replaces
    // that decision only when it is smaller: the limit never makes a policy compact less.
    const after = commits(own) ? own.tokensAfter : prefixTokens;
    let forced = false;
    if (options.hardLimit === true && safeOriginal.has(k) && after > options.window) {
      const limited = await run(Math.floor(hardLimitShare * options.window));
      forced = commits(limited) && limited.tokensAfter < after;
      if (own) recordPlannerRound(own, !forced && commits(own));
      recordPlannerRound(limited, forced);
      if (forced) result = limited;
    } else if (own) recordPlannerRound(own, commits(own));
    if (result) {
      if (commits(result)) {
        if (judge) {
          // The judge reads the real continuation to the session's end, not just the working horizon:
          // from the session's dependency index (built once), or — the reference — extracted again.
          const judged = options.judgeExtraction === "per-commit" ? withHead(session, head, base, n) : work;
          let dependencies: DependencySet | undefined;
          if (options.judgeExtraction !== "per-commit") {
            dependencyIndex ??= buildSessionDependencyIndex(session);
            dependencies = dependenciesAtCommit(dependencyIndex, { session: work, index, cut, at: k });
          }
          const { checked } = judgeWithChecks({
            session: judged,
            index,
            cut,
            result,
            countTokens: (text) => options.tokenizer.count(text),
            ...(dependencies ? { dependencies } : {}),
          });
          // Messages from `cut` on in the working session are the original messages from `k` on.
          const offset = k - cut;
          rounds.push({ round: rounds.length + 1, message: k, toOriginal: (m) => m + offset, checked, sidecars: result.sidecars });
        }
        if (record !== undefined && walked.length <= record) {
          headMarks = markHead(result.view, headMarks, head.length, base);
          sidecars = [...sidecars, ...result.sidecars];
        }
        head = headFromView(work, result.view);
        base = k;
        end = horizonEnd(original.prefixTokens, base, stepEnd + HORIZON_MARGIN, options.window);
        work = withHead(session, head, base, end);
        index = buildContextIndex(work, options.tokenizer);
        cut = head.length;
        compacted = true;
        if (forced) hardLimitCommits++;
        compactionAt.push({ call: walked.length, tokensBefore: result.tokensBefore, tokensAfter: index.prefixTokens[cut]!, actions: result.actions.length });
      }
    }
    if (walked.length === record) {
      workingContext = { call: record, message: k, base, head: headMarks, messages: work.messages.slice(0, cut), tokens: index.prefixTokens[cut]!, sidecars };
    }
    walked.push({
      message: k,
      without: original.prefixTokens[k]!,
      with: index.prefixTokens[cut]!,
      compacted,
      output: original.prefixTokens[stepEnd]! - original.prefixTokens[k]!,
    });
  }

  const settled = settleRounds(
    rounds,
    walked.map((w) => w.message),
    compactionAt.map((a) => a.call),
    options.tokenizer,
  );
  const ttl = options.cacheTtlMs ?? 5 * 60_000;
  const calls: RolloutCall[] = [];
  let previous: { without: number; with: number; at?: number } | undefined;
  walked.forEach((w, i) => {
    const message = session.messages[w.message]!;
    const at = message.timestamp ? Date.parse(message.timestamp) : undefined;
    const expired = previous !== undefined && at !== undefined && previous.at !== undefined && at - previous.at > ttl;
    const without = callCacheTerms(w.without, expired ? undefined : previous?.without);
    const withPolicy = callCacheTerms(w.with + settled.extraInput[i]!, expired || w.compacted ? undefined : previous?.with);
    calls.push({
      message: w.message,
      ...(message.timestamp ? { timestamp: message.timestamp } : {}),
      without,
      with: withPolicy,
      output: w.output,
      compacted: w.compacted,
      restoredTokens: settled.restoredAt[i]!,
    });
    previous = { without: without.input, with: withPolicy.input, ...(at !== undefined && Number.isFinite(at) ? { at } : {}) };
  });
  const mean = (pick: (c: RolloutCall) => number) => (calls.length ? calls.reduce((a, c) => a + pick(c), 0) / calls.length : Number.NaN);
  const meanInput = { without: mean((c) => c.without.input), with: mean((c) => c.with.input) };
  return {
    sessionId: session.id,
    policy: policy.id,
    window: options.window,
    calls,
    compactions: commitBenefits(calls, compactionAt, options.prices ?? DEFAULT_PRICES, options.gcOverheadTokens ?? 0),
    rounds,
    restores: settled.restores,
    lostSteps: settled.lostSteps,
    meanInput,
    reductionPct: 100 * (1 - meanInput.with / meanInput.without),
    judged: judge,
    plannerRounds,
    hardLimitCommits,
    ...(workingContext ? { workingContext } : {}),
  };
}

/** The hard limit's target share of the window for a policy without a trigger ratio (the rollout's default trigger). */
const DEFAULT_HARD_LIMIT_SHARE = 0.9;

/** Messages kept past a step's end in the working session (a cut's safety and the step's output need no more). */
const HORIZON_MARGIN = 2;

/**
 * The working session's end: the first original index at or after `atLeast` whose messages since
 * `base` hold `tokens` (a policy's trigger fires within about a window of new tokens), or the end.
 */
function horizonEnd(prefixTokens: readonly number[], base: number, atLeast: number, tokens: number): number {
  const n = prefixTokens.length - 1;
  let lo = Math.min(n, atLeast),
    hi = n;
  const target = prefixTokens[base]! + tokens;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (prefixTokens[mid]! >= target) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The end of the assistant step starting at `k`: the first later message that is not the assistant's. */
function nextNonAssistant(session: Session, k: number): number {
  let end = k;
  while (end < session.messages.length && session.messages[end]!.role === "assistant") end++;
  return end;
}

import { shortId } from "../ids";
import type { PlanActionKind } from "../plan-types";
import { isContractSubject } from "./contracts";
import type { FunctionFacts } from "./facts";
import type { Supersession } from "./supersession";
import { carriesUserFeedback, FILE_BODY_TOOLS, isContentSearch, isRepetitiveLog, quotesSourceLines } from "./text-shape";

/**
 * The planner contract's ordered rules applied to one tool-level object (seed 000, Appendix
 * "Planner contract" and Table 5), first match wins:
 * 1. exclusions — protected latest turn, instruction/contract reads, user feedback (keep);
 * 2. obsolescence cleared by a later step — failed attempt superseded by a success, duplicate
 *    read or identical repeated call, body rewritten by a later full write (prune: the later step carries what matters;
 *    fold when large, so a misjudgement stays recoverable) —
 *    a small one whose call carries a body (a script) is kept, since a prune drops the call too;
 *    but only once its dependencies are cleared: no handle from it or line quoted from it is used
 *    later in the prefix (otherwise it falls through to rule 4 and is folded or kept);
 * 3. the working set at the end of the prefix: kept when small; when large, a last-resort fold
 *    (tier 3) the sanity check spends only when everything older cannot make the plan commit;
 * 4. future dependencies — live handles, editable artifact bodies, verbatim-quoted evidence: kept
 *    when small; when large, folded ("anything that may be needed verbatim is kept, or folded when
 *    large; it is never pruned or masked"), so the body stays recoverable byte for byte and the
 *    pointer names it;
 * 5. action semantics — mask superseded reruns and repetitive logs (never file bodies), prune
 *    obsolete searches (fold when large, or when they quote source lines, as grep prints them, and
 *    the pointer costs at most half of them: recoverable lines a later edit may copy), fold large stable bodies and generated bodies (a Write's content, a
 *    heredoc: the span's call arguments; recoverable); everything else is kept.
 * A span's size is its result plus the body its call generated.
 *
 * Each action carries a tier, the order in which the sanity check spends them under pressure:
 * 0 obsolete trace (always taken), 1 stable bodies with no known dependency, 2 dependency-bearing
 * bodies (recoverable, but the next step is likelier to need them), 3 large working-set bodies
 * (the newest steps outside the protected tail: recoverable, and the likeliest of all to be
 * needed next, so spent only as the reserve that lets an otherwise pending plan commit).
 */
export type KeepReason = "protected" | "contract" | "user_feedback" | "live_handle" | "editable_body" | "exact_evidence" | "recent" | "small";

export type ActionTier = 0 | 1 | 2 | 3;

export type Verdict = { keep: KeepReason; detail?: string } | { action: PlanActionKind; reason: string; tier: ActionTier };

export interface VerdictSignals {
  /** Function object id → live handles it introduced. */
  live: Map<string, string[]>;
  quoted: Set<string>;
  supersession: Supersession;
}

export interface VerdictOptions {
  /** Fold bodies of at least this many tokens (default 300). */
  foldMinTokens: number;
  /**
   * The size from which this span counts as large, when the planner knows better than the fixed
   * `foldMinTokens` (a short prefix, where a few hundred tokens is a large share); default that.
   */
  largeFrom?: (f: FunctionFacts) => number;
  /** Would folding this span remove at least half of it (its pointer costs at most half)? */
  foldPays?: (f: FunctionFacts) => boolean;
  /** Mask logs of at least this many tokens (default 200). */
  maskMinTokens: number;
}

/** A call whose text spans at least this many lines carries a body (a script, a snippet), not just a command. */
export const CALL_BODY_LINES = 4;

export function judgeFunction(f: FunctionFacts, signals: VerdictSignals, options: VerdictOptions): Verdict {
  const id = f.object.id;
  const { supersession: s } = signals;
  if (f.isProtected) return { keep: "protected" };
  if (isContractSubject(f.call.subject)) return { keep: "contract", detail: f.call.subject };
  if (carriesUserFeedback(f.content)) return { keep: "user_feedback" };

  const tokens = f.object.tokens + f.callBodyTokens;
  const large = tokens >= (options.largeFrom?.(f) ?? options.foldMinTokens);
  const handles = signals.live.get(id);
  const quoted = signals.quoted.has(id);
  // Obsolete trace is pruned only once its dependencies are cleared: a superseded attempt whose
  // output a later step still quoted or took a handle from is folded instead (never pruned).
  // Large obsolete trace is folded rather than pruned: nearly the same saving, and recoverable if
  // the prefix misjudged it (seed 000: fold what may need idempotent recovery).
  // A prune removes the call with its result: a call that carries a body of its own (a script, a
  // generated snippet) is not low-signal trace — later steps may reuse its lines — so a small one
  // is never pruned (it falls through and is kept); a large one is folded, call body included.
  const carriesBody = f.callLines >= CALL_BODY_LINES || f.callBodyTokens > 0;
  const obsolete = obsolescence(f, s);
  if (obsolete && !handles && !quoted && (large || !carriesBody)) return { action: large ? "fold" : "prune", reason: obsolete, tier: 0 };
  if (f.isRecent) {
    return large
      ? { action: "fold", reason: `working_set: ${tokens} tokens among the newest steps; folded only as the reserve, recoverable`, tier: 3 }
      : { keep: "recent" };
  }

  if (handles) {
    const named = handles.slice(0, 3).join(", ");
    return large ? { action: "fold", reason: `live_body: introduced ${named}; the pointer keeps the route`, tier: 2 } : { keep: "live_handle", detail: named };
  }
  if (s.editable.has(id)) {
    return large
      ? { action: "fold", reason: `editable_artifact: ${f.call.read?.path ?? "body"} is edited later; fold, never prune`, tier: 2 }
      : { keep: "editable_body", detail: f.call.read?.path };
  }
  if (quoted)
    return large ? { action: "fold", reason: "source_evidence: later steps copied lines from it; fold, never mask", tier: 2 } : { keep: "exact_evidence" };

  const isBody = FILE_BODY_TOOLS.has(f.object.tool ?? "");
  const rerun = s.supersededRerun.get(id);
  const masks = !isBody && f.callBodyTokens === 0 && f.object.tokens >= options.maskMinTokens;
  if (rerun && masks) return { action: "mask", reason: `superseded_rerun: ${shortId(rerun)} ran the same command later`, tier: 0 };
  if (masks && isRepetitiveLog(f.content)) return { action: "mask", reason: "repetitive_log: log-like output, head and tail kept", tier: 0 };
  const quotesSource = isContentSearch(f.object.tool, f.call.intent) && quotesSourceLines(f.content);
  if (f.call.isSearch && f.object.tokens > 0 && f.callBodyTokens === 0) {
    // Source lines a search quoted are folded (recoverable) whenever the pointer costs at most half
    // of them; a path listing, or a search too small to fold, is pruned (unless its call is a script).
    const fold = large || (quotesSource && (options.foldPays?.(f) ?? false));
    if (fold || !carriesBody) return { action: fold ? "fold" : "prune", reason: "obsolete_search: no later step used its results", tier: 0 };
  }
  if (large && f.callBodyTokens > f.object.tokens)
    return {
      action: "fold",
      reason: `generated_body: ${f.callBodyTokens} tokens written by the call${f.call.subject ? ` to ${f.call.subject}` : ""}, recoverable`,
      tier: 1,
    };
  if (large) return { action: "fold", reason: `stable_body: ${tokens} tokens, recoverable from the sidecar`, tier: 1 };
  return { keep: "small" };
}

/** Why a later step made this result obsolete (superseded failure, duplicate read, rewrite), if it did. */
function obsolescence(f: FunctionFacts, s: Supersession): string | undefined {
  const laterSuccess = s.supersededFailure.get(f.object.id);
  if (laterSuccess) return `superseded_failure: ${shortId(laterSuccess)} retried it successfully`;
  const reread = s.duplicateRead.get(f.object.id);
  if (reread) return `duplicate_read: ${shortId(reread)} read ${f.call.read?.path ?? "the file"} again`;
  const repeat = s.duplicateResult.get(f.object.id);
  if (repeat) return `duplicate_result: ${shortId(repeat)} made the same call and got the same output`;
  const rewrite = s.supersededByWrite.get(f.object.id);
  if (rewrite) return `superseded_by_write: ${shortId(rewrite)} rewrote ${f.call.read?.path ?? "the file"}`;
  return undefined;
}

import type { ContextIndex } from "../../compaction/context/objects";
import { safeCutPoints } from "../../compaction/policies/cut-points";
import { DEFAULT_TRIGGER_LEVEL, windowAtLevel } from "../../compaction/policies/select-cut";
import type { Session } from "../../trace/model";
import { CutLevelsSchema, cutLevelShares } from "./cut-levels";

/**
 * The replay protocol's cut points (seed 000: "all offline methods use the same cut points, token
 * accounting, mandatory last-turn retention"). Identical for every policy, so their pruning and
 * no-impact rates are comparable.
 *
 * Per session:
 * - every native compaction the trace recorded (Claude Code `compact_boundary`, Codex `compacted`)
 *   maps to the last safe cut at or before its `beforeMessage`: the moment the real harness compacted;
 * - for each share s (default 50%, 70%, 90%; a run's `cutLevels`), the first safe cut whose prefix
 *   reaches s of the session's tokens.
 * Cuts are deduplicated (a cut reached by several rules keeps every reason, native first): when two
 * levels land on the same safe boundary (a long tool result can carry the prefix past both), the
 * session gets one cut there, not two, so a session yields at most natives + levels cuts. Cuts are
 * kept only when at least one assistant step follows — otherwise there is no future to judge.
 * Deterministic: the same session, index and options give the same cuts.
 */
export const DEFAULT_SHARES: readonly number[] = [0.5, 0.7, 0.9];

/** Why a cut was chosen: `native` or `share-<percent>` (`share-50`). Public contract (JSON, studio). */
export type CutReason = "native" | `share-${number}`;

export interface ReplayCut {
  /** Prefix length: the prefix is `messages[0..cut)`, the future `messages[cut..]`. */
  cut: number;
  /** The first rule that picked this cut (native before shares, shares ascending). */
  reason: CutReason;
  /** Every rule that picked it. */
  reasons: CutReason[];
  /** Tokens of the prefix (`index.prefixTokens[cut]`). */
  prefixTokens: number;
  /** prefixTokens / session tokens. */
  share: number;
}

export interface ReplayCutOptions {
  /** Shares as fractions (0.5). Ignored when `levels` is given. */
  shares?: readonly number[];
  /**
   * Levels as whole percents (lib/evaluation/cuts/cut-levels: 1–99, strictly increasing, at most 20), validated
   * here: invalid levels throw the ZodError with each issue located at its index.
   */
  levels?: readonly number[];
  includeNative?: boolean;
}

/** The protocol's cuts for one session, ascending by position. Linear in the session. */
export function replayCuts(session: Session, index: ContextIndex, options: ReplayCutOptions = {}): ReplayCut[] {
  const shares = options.levels !== undefined ? cutLevelShares(CutLevelsSchema.parse(options.levels)) : (options.shares ?? DEFAULT_SHARES);
  const safe = safeCutPoints(session);
  const total = index.prefixTokens[session.messages.length] ?? 0;
  const picked = new Map<number, CutReason[]>();
  const pick = (cut: number | undefined, reason: CutReason) => {
    if (cut === undefined) return;
    const reasons = picked.get(cut) ?? [];
    if (!reasons.includes(reason)) reasons.push(reason);
    picked.set(cut, reasons);
  };
  if (options.includeNative ?? true) {
    for (const compaction of session.compactions) pick(lastAtOrBefore(safe, compaction.beforeMessage), "native");
  }
  for (const share of [...shares].sort((a, b) => a - b)) {
    pick(
      safe.find((k) => index.prefixTokens[k]! >= share * total),
      `share-${Math.round(share * 100)}`,
    );
  }
  const hasLaterAssistant = laterAssistantSteps(session);
  return [...picked.entries()]
    .filter(([cut]) => hasLaterAssistant[cut] === true)
    .sort(([a], [b]) => a - b)
    .map(([cut, reasons]) => ({
      cut,
      reason: reasons[0]!,
      reasons,
      prefixTokens: index.prefixTokens[cut]!,
      share: total > 0 ? index.prefixTokens[cut]! / total : 0,
    }));
}

/**
 * The window in which a prefix of `prefixTokens` sits at `level` of it (default 90%): every policy
 * compacts from the same pressure at a replay cut.
 */
export function windowForCut(prefixTokens: number, level = DEFAULT_TRIGGER_LEVEL): number {
  return windowAtLevel(prefixTokens, level);
}

function lastAtOrBefore(sorted: readonly number[], limit: number): number | undefined {
  let found: number | undefined;
  for (const k of sorted) {
    if (k > limit) break;
    found = k;
  }
  return found;
}

/** later[k] is true when some message at or after k is an assistant step with content. */
function laterAssistantSteps(session: Session): boolean[] {
  const later = new Array<boolean>(session.messages.length + 1).fill(false);
  for (let m = session.messages.length - 1; m >= 0; m--) {
    const message = session.messages[m]!;
    later[m] = later[m + 1]! || (message.role === "assistant" && message.parts.length > 0);
  }
  return later;
}
